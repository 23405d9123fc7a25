"""Look up a place as the data names it: the Ask tab's helper for writing requests.

It uses the one place-name resolver of the product (``plugin.city.names``, the one ask and the
instruction interpreter use): every name the region's data has (streets, POIs, buildings,
places, areas; aliases, diacritics, fuzzy), ranked. A region's index is built once in a
QgsTask (reading the region takes seconds), then each lookup is a short main-thread call.
Clicking a result hands its name to the dock (``picked``).
"""
from __future__ import annotations

from qgis.core import QgsApplication, QgsTask
from qgis.PyQt.QtCore import Qt, QTimer, pyqtSignal
from qgis.PyQt.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ..city.regions import REGIONS

LIMIT = 8


class PlaceLookup(QWidget):
    picked = pyqtSignal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.indexes: dict[str, object] = {}   # region -> NameIndex, once built
        self.task: QgsTask | None = None
        self.region = QComboBox()
        self.region.addItems(list(REGIONS))
        self.text = QLineEdit()
        self.text.setPlaceholderText("look up a place in the data (e.g. Kamppi, Stockmann, Karhula)")
        self.results = QListWidget()
        self.results.setMaximumHeight(90)
        self.results.setToolTip("click a name to put it into the request")
        self.results.itemClicked.connect(lambda item: self.picked.emit(item.data(Qt.ItemDataRole.UserRole)))
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(300)  # look up once typing pauses
        self.timer.timeout.connect(self.lookup)
        self.text.textChanged.connect(self.timer.start)
        self.region.currentIndexChanged.connect(self.lookup)
        row = QHBoxLayout()
        row.addWidget(self.text)
        row.addWidget(self.region)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(row)
        lay.addWidget(self.results)

    def lookup(self) -> list[str]:
        """Show the ranked names for the typed text; builds the region's index first if needed."""
        region, text = self.region.currentText(), self.text.text().strip()
        self.results.clear()
        if not text:
            return []
        index = self.indexes.get(region)
        if index is None:
            self._build(region)
            self.results.addItem(f"reading the {region} names …")
            return []
        found = index.lookup(text, limit=LIMIT)
        if not found:
            near = index.suggestions(text)
            self.results.addItem(f"'{text}' is not in the {region} data" +
                                 (f" — did you mean {', '.join(near)}?" if near else ""))
            return []
        for m in found:
            f = m.feature
            item = QListWidgetItem(f"{f.name} — {f.kind}" + (f" ({f.category})" if f.category else ""))
            item.setData(Qt.ItemDataRole.UserRole, f.name)
            self.results.addItem(item)
        return [m.feature.name for m in found]

    def _build(self, region: str) -> None:
        if self.task is not None:
            return

        def work(_task: QgsTask, name: str):
            from ..city.names import name_index

            return name, name_index(name)

        def done(exc, result=None) -> None:
            self.task = None
            if exc is None and result is not None:
                self.indexes[result[0]] = result[1]
                self.lookup()
            else:
                self.results.clear()
                self.results.addItem(f"cannot read the {region} names: {exc}")

        self.task = QgsTask.fromFunction(f"CityPlanner: names of {region}", work, region, on_finished=done)
        QgsApplication.taskManager().addTask(self.task)
