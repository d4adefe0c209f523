"""The results pages' generated text: directives that insert what :mod:`genesel.records.onrecord` writes from the
committed tables in ``figures/`` while the site is built, so no number on those pages is typed by hand and none
can go stale.

- ``{genesel-onrecord} <notebook>``: where the notebook's committed full run came from and its paper-vs-genesel
  table, folded (:func:`genesel.records.onrecord.block`);
- ``{genesel-onrecord-table} <name>``: the committed table ``figures/<name>.csv`` whole
  (:func:`genesel.records.onrecord.table_block`);
- ``{genesel-agreement}``: the tally of the papers' cells that agree, per reference table, and its totals
  (:func:`genesel.records.onrecord.agreement_block`); ``:headline:`` gives the one sentence of the README instead
  (:func:`genesel.records.agreement.headline`).

Each page is reread when a file it quotes, or the module that writes its text, changes.
"""

from __future__ import annotations

from pathlib import Path

from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

__all__ = ["setup"]


def _figures(env) -> Path:
    config = env.config
    return Path(config.genesel_figures_dir) if config.genesel_figures_dir else Path(config.genesel_root) / "figures"


class _Generated(SphinxDirective):
    has_content = False

    def text(self, figures: Path) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def depends_on(self, figures: Path) -> list[Path]:
        return []

    def run(self):
        import genesel.records.agreement as agreement
        import genesel.records.onrecord as onrecord

        figures = _figures(self.env)
        # the page is reread when a table it quotes, or the code that writes the text, changes
        for path in [*self.depends_on(figures), Path(onrecord.__file__), Path(agreement.__file__)]:
            if path.exists():
                self.env.note_dependency(str(path))
        return self.parse_text_to_nodes(self.text(figures))


class OnRecord(_Generated):
    """``{genesel-onrecord} <notebook>``: see the module docstring."""

    required_arguments = 1

    def text(self, figures):
        from genesel.records.onrecord import NOTEBOOK_TABLES, block

        name = self.arguments[0]
        if name not in NOTEBOOK_TABLES:
            raise self.error(f"genesel-onrecord: {name!r} is no notebook; known: {', '.join(NOTEBOOK_TABLES)}")
        return block(name, figures, fmt="myst")

    def depends_on(self, figures):
        from genesel.records.onrecord import NOTEBOOK_TABLES

        name = self.arguments[0]
        stem, patterns = NOTEBOOK_TABLES.get(name, (name, ()))
        found = [figures / f"{name}_run.json", figures / f"{stem}_paper_vs_genesel.csv"]
        return found + [p for pat in patterns for p in figures.glob(pat)]


class OnRecordTable(_Generated):
    """``{genesel-onrecord-table} <name>``: see the module docstring."""

    required_arguments = 1

    def text(self, figures):
        from genesel.records.onrecord import table_block

        return table_block(self.arguments[0], figures)

    def depends_on(self, figures):
        return [figures / f"{self.arguments[0]}.csv"]


class Agreement(_Generated):
    """``{genesel-agreement}`` (``:headline:`` for the one sentence): see the module docstring."""

    option_spec = {"headline": directives.flag}

    def text(self, figures):
        from genesel.records.agreement import headline
        from genesel.records.onrecord import agreement_block

        return headline(figures) if "headline" in self.options else agreement_block(figures)

    def depends_on(self, figures):
        return sorted(figures.glob("*_paper_vs_genesel.csv"))


def setup(app) -> None:
    app.add_directive("genesel-onrecord", OnRecord)
    app.add_directive("genesel-onrecord-table", OnRecordTable)
    app.add_directive("genesel-agreement", Agreement)
