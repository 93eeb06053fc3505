"""The docs' examples are true: the example record verifies, the rule ids exist."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pitch.engine import PRESETS, Rules, verify_record
from tests.engine import referee

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_record_format_example_verifies() -> None:
    text = (DOCS / "record-format.md").read_text(encoding="utf-8")
    example = text[text.index("## Example") :]
    block = re.search(r"```json\n(.*?)```", example, re.S)
    assert block is not None
    rec = json.loads(block.group(1))
    assert verify_record(rec) is None
    assert referee.check(rec) == []


def test_rules_doc_cites_every_rule_option_and_preset() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    ids = {
        "R1.1", "R1.2", "R1.3", "R1.4", "R2.1", "R2.2", "R2.3", "R2.4",
        "R3.1", "R3.2", "R3.3", "R3.4", "R3.5", "R3.6", "R3.7",
        "R4.1", "R4.2", "R4.3", "R4.4", "R4.5", "R4.6",
        "R5.1", "R5.2", "R5.3", "R5.4", "R5.5", "R5.6", "R5.7", "R6.1", "R6.2",
    }  # fmt: skip
    for rule in ids:
        assert f"**{rule}" in text, rule
    for name in Rules.__dataclass_fields__:
        assert f"`{name}`" in text, name
    for name in PRESETS:
        assert f"`{name}`" in text, name


def test_rules_doc_options_table_is_the_engine_table() -> None:
    from pitch.engine.rules import OPTIONS

    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    table = text[text.index("| option | default | meaning | rule |") :].split("\n\n")[0]
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in table.splitlines()[2:]]
    shown = {o.key: json.dumps(o.default) if o.kind == "str" else o.default for o in OPTIONS}
    want = [[f"`{o.key}`", f"`{shown[o.key]}`", o.rule] for o in OPTIONS]
    assert [[r[0], r[1], r[-1]] for r in rows] == want
