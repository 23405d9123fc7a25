"""Errors of a run are shown where the planner looks (the message bar and the dock's summary,
which the previous run's text must not keep), and the LLM status is re-read on demand."""
from __future__ import annotations

import pytest
from qgis.core import Qgis

from cityplanner.plugin.gui.planner_dock import SOURCES, PlannerDock, llm_note

pytestmark = pytest.mark.qgis


@pytest.fixture
def dock(qgis_app, qgis_iface, qtbot):
    d = PlannerDock()
    qtbot.addWidget(d)
    d.source.setCurrentText(SOURCES[0])
    yield d
    d.cancel()


def critical(iface) -> list[str]:
    return iface.messageBar().get_messages(Qgis.MessageLevel.Critical)


def test_an_input_error_reaches_the_message_bar_and_the_summary(dock, qgis_iface, tmp_path):
    dock.workspace.setText(str(tmp_path / "nowhere"))
    before = len(critical(qgis_iface))
    assert dock.start() is None
    assert f"not a workspace: {tmp_path / 'nowhere'}" in dock.summary.text()
    assert "Error" in dock.summary.text()
    assert critical(qgis_iface)[before:] == [f"CityPlanner:not a workspace: {tmp_path / 'nowhere'} "
                                            "(choose a region source to build one)"]


def test_a_failed_run_replaces_the_previous_summary(dock, qgis_iface):
    dock.summary.setText("Workspace best — default: score 0.3744 (valid)")
    error = ("model failed to load: ModuleNotFoundError: No module named 'llama_cpp'\n"
             "  (second line of a traceback)")
    dock.on_done({"error": error})
    text = dock.summary.text()
    assert "0.3744" not in text and "No module named &#x27;llama_cpp&#x27;" in text
    assert critical(qgis_iface)[-1] == ("CityPlanner:model failed to load: ModuleNotFoundError: No module named "
                                        "'llama_cpp' (second line of a traceback)")
    assert dock.run_button.isEnabled() and not dock.cancel_button.isEnabled()


def test_the_llm_status_is_read_again(dock):
    dock.llm_note.setText("Local LLM (planner agent, Ask, LLM residents) unavailable: llama-cpp-python missing")
    dock.llm_note.setVisible(True)
    now = dock.refresh_llm_note()
    assert now == llm_note() == dock.llm_note.text()
    assert dock.llm_note.isVisibleTo(dock) == bool(now)
