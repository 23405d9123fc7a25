"""Budgets of the virtual terminal: time, data held in memory and writes, per command and per turn.

Model text decides what the terminal does, so nothing it asks for may run unbounded. The
programs are Python over strings; the memory a command can reach is the data it holds, so
every byte read from a file, every string a program produces and every line list a program
splits charges the *data* budget of the command (and of its turn). Time is checked in every
loop that depends on the input. When a budget is spent the command stops with
``BudgetExceeded``, whose one-line message the model sees as the command's error; the rest of
that command is not run, the turn goes on with its next command while turn budgets last.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

LINE_OVERHEAD = 32  # bytes charged per line a program splits: a list entry and a string header


class BudgetExceeded(Exception):
    """A command or turn budget was spent; the message is one line for the agent."""


@dataclass(frozen=True)
class Limits:
    command_seconds: float = 10.0
    turn_seconds: float = 30.0
    command_bytes: int = 16_000_000     # data one command may hold: reads, outputs, pipes, line lists
    turn_bytes: int = 64_000_000        # the same summed over the commands of one turn
    turn_write_bytes: int = 8_000_000   # bytes written to files in one turn
    turn_new_files: int = 100           # files created in one turn
    command_output: int = 8000          # characters of one command shown on the screen


class Budget:
    """What is left of the current command's and turn's budgets."""

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits()
        self.start_turn()

    def start_turn(self) -> None:
        lim = self.limits
        self.turn_deadline = time.monotonic() + lim.turn_seconds
        self.turn_bytes_left = lim.turn_bytes
        self.writes_left = lim.turn_write_bytes
        self.files_left = lim.turn_new_files
        self.start_command()

    def start_command(self) -> None:
        lim = self.limits
        self.deadline = min(time.monotonic() + lim.command_seconds, self.turn_deadline)
        self.bytes_left = min(lim.command_bytes, self.turn_bytes_left)
        self._command_bytes = self.bytes_left

    def end_command(self) -> None:
        self.turn_bytes_left -= self._command_bytes - self.bytes_left
        self._command_bytes = self.bytes_left

    def check_time(self) -> bool:
        """False while time is left (so it can sit in a comprehension's condition); raises after."""
        if time.monotonic() > self.deadline:
            which = "turn" if self.deadline >= self.turn_deadline else "command"
            seconds = self.limits.turn_seconds if which == "turn" else self.limits.command_seconds
            raise BudgetExceeded(f"time budget of this {which} ({seconds:g} s) spent; the command was stopped")
        return False

    def spend(self, nbytes: int, lines: int = 0) -> None:
        """Charge data a command holds (``lines`` adds the per-line cost of a split)."""
        self.bytes_left -= nbytes + lines * LINE_OVERHEAD
        if self.bytes_left < 0:
            which = "turn" if self._command_bytes < self.limits.command_bytes else "command"
            mb = (self.limits.turn_bytes if which == "turn" else self.limits.command_bytes) / 1e6
            raise BudgetExceeded(f"memory budget of this {which} ({mb:g} MB of data) spent; the command was stopped")
        self.check_time()

    def spend_write(self, nbytes: int, new_file: bool) -> None:
        """Charge a file write before it happens (each write also costs a sync: check the time)."""
        self.check_time()
        if new_file and self.files_left <= 0:
            raise BudgetExceeded(f"at most {self.limits.turn_new_files} new files per turn; nothing was written")
        if nbytes > self.writes_left:
            raise BudgetExceeded(f"write budget of this turn ({self.limits.turn_write_bytes / 1e6:g} MB) spent; "
                                 "nothing was written")
        self.writes_left -= nbytes
        self.files_left -= new_file
