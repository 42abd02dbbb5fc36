"""The rule registry: every ``jitNNN_*.py`` module here contributes its Rule subclasses.

Adding a rule is adding one module; nothing else needs to change.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Optional

from jitlint.rule import Rule


def _discover() -> dict[str, type[Rule]]:
    rules: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("jit"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and "code" in vars(value):
                if value.code in rules:
                    raise RuntimeError(f"duplicate rule code {value.code}")
                rules[value.code] = value
    return dict(sorted(rules.items()))


ALL_RULES: dict[str, type[Rule]] = _discover()


def get_rule(code: str) -> Optional[type[Rule]]:
    return ALL_RULES.get(code.upper())


def find_rule(code_or_name: str) -> Optional[type[Rule]]:
    """A rule by its code (``JIT101``, any case) or its name (``jit-of-lambda``)."""
    wanted = code_or_name.strip()
    return get_rule(wanted) or next((rule for rule in ALL_RULES.values()
                                     if rule.name == wanted.lower()), None)
