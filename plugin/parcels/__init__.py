"""A planner's parcel layer: land-use value mapping and reading parcels for the land task and
participation (above ``plugin.tasks``, below commands / QGIS adapters)."""
