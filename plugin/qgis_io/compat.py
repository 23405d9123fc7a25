"""QGIS enum names and field types that differ between QGIS 3.22 and QGIS 3.30+ / 4 (Qt6).

QGIS 3.30-3.36 moved many enums into `Qgis` and renamed their members (`QgsWkbTypes.Point`
→ `Qgis.WkbType.Point`, `QgsProcessing.TypeVectorPolygon` →
`Qgis.ProcessingSourceType.VectorPolygon`); QGIS 4 (Qt6) no longer accepts the old unscoped
forms, and QGIS 3.22 (Debian 12) has only those. The rest of the plugin names these enums
through this module, always with the new member names: here each is `Qgis.<Name>` where this
QGIS has it, else a stand-in class whose attributes carry the new names and 3.22's values.
This is the only module that may name the pre-3.30 forms (`scripts/enum_check.py` enforces it).
"""
from __future__ import annotations

from collections.abc import Callable

from qgis.core import (
    Qgis,
    QgsFeatureRequest,
    QgsLegendStyle,
    QgsMapLayerProxyModel,
    QgsProcessing,
    QgsProcessingFeatureSource,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
    QgsUnitTypes,
    QgsWkbTypes,
)
from qgis.PyQt.QtCore import QMetaType, QVariant


def _same(member: str) -> str:
    return member


def _enum(name: str, owner: type, old_enum: str, rename: Callable[[str], str] = _same) -> type:
    """`Qgis.<name>` where it exists, else `owner.<old_enum>`'s members under their new names."""
    new = getattr(Qgis, name, None)
    if new is not None:
        return new
    old = getattr(owner, old_enum)
    # sip (PyQt5) lists an enum's members only on the class that owns it
    members = {rename(m): getattr(owner, m) for m in dir(owner)
               if not m.startswith("_") and type(getattr(owner, m, None)) is old}
    return type(name, (), members)


def _drop(prefix: str = "", suffix: str = "") -> Callable[[str], str]:
    """A renaming that strips `prefix` and `suffix` (the 3.30+ member names lost them)."""
    def rename(member: str) -> str:
        if prefix and member.startswith(prefix) and len(member) > len(prefix):
            member = member[len(prefix):]
        if suffix and member.endswith(suffix) and len(member) > len(suffix):
            member = member[:-len(suffix)]
        return member
    return rename


WkbType = _enum("WkbType", QgsWkbTypes, "Type")
GeometryType = _enum("GeometryType", QgsWkbTypes, "GeometryType", _drop(suffix="Geometry"))
DistanceUnit = _enum("DistanceUnit", QgsUnitTypes, "DistanceUnit", _drop(prefix="Distance"))
LayoutUnit = _enum("LayoutUnit", QgsUnitTypes, "LayoutUnit", _drop(prefix="Layout"))
LegendComponent = _enum("LegendComponent", QgsLegendStyle, "Style")
LayerFilter = _enum("LayerFilter", QgsMapLayerProxyModel, "Filter")
FeatureRequestFlag = _enum("FeatureRequestFlag", QgsFeatureRequest, "Flag")
ProcessingSourceType = _enum("ProcessingSourceType", QgsProcessing, "SourceType", _drop(prefix="Type"))
ProcessingParameterFlag = _enum("ProcessingParameterFlag", QgsProcessingParameterDefinition, "Flag",
                                _drop(prefix="Flag"))
ProcessingNumberParameterType = _enum("ProcessingNumberParameterType", QgsProcessingParameterNumber, "Type")
ProcessingFieldParameterDataType = _enum("ProcessingFieldParameterDataType", QgsProcessingParameterField,
                                         "DataType")
ProcessingFileParameterBehavior = _enum("ProcessingFileParameterBehavior", QgsProcessingParameterFile,
                                        "Behavior")
ProcessingFeatureSourceFlag = _enum("ProcessingFeatureSourceFlag", QgsProcessingFeatureSource, "Flag",
                                    _drop(prefix="Flag"))

# QGIS 3.38 takes field types as QMetaType (a QVariant type warns there; Qt6 has no QVariant.Type);
# 3.22 knows only QVariant's. Both name the same Qt type ids.
_QMETATYPE_FIELDS = Qgis.versionInt() >= 33800
_FIELD_TYPES = {"bool": (QMetaType.Type.Bool, "Bool"), "int": (QMetaType.Type.Int, "Int"),
                "uint": (QMetaType.Type.UInt, "UInt"), "int64": (QMetaType.Type.LongLong, "LongLong"),
                "uint64": (QMetaType.Type.ULongLong, "ULongLong"), "double": (QMetaType.Type.Double, "Double"),
                "string": (QMetaType.Type.QString, "String")}


def field_type(kind: str):
    """The QgsField type for `kind` (bool, int, uint, int64, uint64, double, string) on this QGIS.

    The value also compares equal to what `QgsField.type()` returns for such a field."""
    meta, variant = _FIELD_TYPES[kind]
    return meta if _QMETATYPE_FIELDS else getattr(QVariant, variant)
