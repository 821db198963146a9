"""The Textual client for wizard-tui. ``run_table(session, ...)`` is the entry point."""

from .app import WizardApp, run_table, run_table_async

__all__ = ["WizardApp", "run_table", "run_table_async"]
