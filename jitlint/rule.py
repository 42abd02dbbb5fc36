"""What a rule is, and what it gets to look at.

A rule is a small class: its code, kebab-case name, one-line summary, a doc (its docstring,
in the sections What it does / Why is this bad? / Use instead / Fix safety) and VALID/INVALID
examples that the test-suite lints.  ``check`` yields ``Violation``s for CST nodes; the engine
turns them into positioned, suppressible ``Diagnostic``s.  Rules never see the CLI or output.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Iterator, Optional, Sequence

import libcst as cst

from jitlint.jitnames import JitApplication, JitResolver
from jitlint.project import module_name_for
from jitlint.semantic import SemanticModel


# Opt-in groups of findings (as clippy's lint groups, bugbear's B9xx): selected by name with
# ``--select``/``--extend-select`` or the config's ``extend-select``, alongside the codes.
UNKNOWN_CALLERS = "unknown-callers"
GROUPS = {
    UNKNOWN_CALLERS: "findings in a function whose callers jitlint does not see (a public function "
                     "nothing in the project calls, or one handed to a library object): whether "
                     "it runs eagerly, traced or repeatedly is a guess",
}


@dataclass(frozen=True)
class Violation:
    node: cst.CSTNode
    message: str
    # Evidence elsewhere in the file, each a node and what it shows ("the loop that runs it"):
    # editors show them with the finding (the language server's relatedInformation).
    related: tuple[tuple[cst.CSTNode, str], ...] = ()
    # The code whose calling context the finding rests on, where that is not ``node`` itself
    # (a lax call in a helper, flagged because a loop elsewhere calls the helper eagerly; the
    # loop call that feeds a state back): one of ``related``.
    repeated_at: Optional[cst.CSTNode] = None
    # ``node`` does not run when the code repeats, ``repeated_at`` does (a class field's
    # default, fed back through a loop's call): --confirm counts the calls and compiles there.
    runs_at_repeat: bool = False


class FileContext:
    """One parsed module and the analyses rules share; each is computed once, on first use."""

    def __init__(self, path: str, module: cst.Module, model: SemanticModel,
                 extra_jit_functions: Sequence[str] = (), index=None) -> None:
        self.path = path
        self.module = module
        self.model = model
        self.index = index  # project.ProjectIndex of the other linted modules, or None
        # Classes of other modules whose hashability a rule asked for (the index may know it)
        self.classes_asked: set[str] = set()
        # Classes of other modules, also of installed packages, whose methods a rule asked about
        # (JIT104's receivers: project.ClassMembers)
        self.members_asked: set[str] = set()
        # Functions of other modules that traced code here calls with traced arguments:
        # absolute qualified name -> (traced positions, traced keywords, the jitted caller)
        self.traced_calls: dict[str, tuple[set[int], set[str], str]] = {}
        self.resolver = JitResolver(model, extra_jit_functions, index,
                                    module_name_for(path)[1] if index is not None else False)
        self._shared: dict[object, object] = {}

    @cached_property
    def jit_applications(self) -> list[JitApplication]:
        return list(self.resolver.applications())

    def shared(self, key: object, compute):
        """Memoise an analysis several rules use (e.g. the JIT1xx freshness analysis)."""
        if key not in self._shared:
            self._shared[key] = compute(self)
        return self._shared[key]


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    severity: ClassVar[str] = "warning"  # "error" when the code raises at run time
    # Off by default: runs only when selected by a prefix more specific than "JIT" (its doc
    # says why it is opt-in).
    opt_in: ClassVar[bool] = False
    VALID: ClassVar[Sequence[str]] = ()
    INVALID: ClassVar[Sequence[str]] = ()
    # Qualified names (``jax.lax.cond``) whose use, reached through the file's imports, makes
    # it worth parsing although it reaches no jit (the engine's prefilter); for rules about
    # code that runs outside jit.
    prefilter_names: ClassVar[frozenset[str]] = frozenset()
    # Words that must also occur in the file's text for those names to count (``in_axes``: a
    # vmap with no in_axes tuple has nothing for JIT705 to check).
    prefilter_words: ClassVar[tuple[str, ...]] = ()
    # Transforms (``jax.vmap``) that make a file worth parsing only when the function handed to
    # one, a def of the file or a lambda, does a Python-value operation (project.py:
    # transformed_function_forces): for rules about what such a trace raises.
    prefilter_transforms: ClassVar[frozenset[str]] = frozenset()
    # Library functions (``jax.lax.integer_pow``) that, handed to one of those transforms as they
    # are, make the file worth parsing too (``jax.make_jaxpr(jax.lax.integer_pow)(x, 4)``).
    prefilter_handed_functions: ClassVar[frozenset[str]] = frozenset()
    # Library methods (``flax.linen.Module.param``) -> the position of the function argument they
    # trace: a file that reaches the class and hands a def of its own (or a lambda) to a call
    # named like the method there is worth parsing (project.py: hands_own_function).
    prefilter_methods: ClassVar[dict[str, int]] = {}
    # Its findings hold only where the code runs eagerly, or repeatedly: one in a function whose
    # callers are not seen goes to the opt-in group ``unknown-callers`` (rules/_context.py).
    calling_context: ClassVar[bool] = False
    # Each finding on a line stands alone (each has its own --fix edit: two lambdas jitted on one
    # line); else the engine keeps one finding per line, the others as its related locations.
    separate_findings: ClassVar[bool] = False

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        raise NotImplementedError

    def prefilter_text(self, text: str) -> bool:
        """With ``prefilter_names`` reached: does the text show what the rule is about, where no
        fixed word says it (JIT818: an item assignment into a name bound by a constructor)?"""
        return True

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation as Markdown, built from its docstring and examples."""
        parts = [f"# {cls.code} {cls.name}", "", cls.summary, ""]
        if cls.opt_in:
            parts += [f"Opt-in: not run by default; enable it with `--extend-select {cls.code}` "
                      f"(or `extend-select = [\"{cls.code}\"]` in `[tool.jitlint]`).", ""]
        parts.append(inspect.cleandoc(cls.__doc__ or ""))
        if cls.calling_context:
            parts += ["", "## Calling context", "",
                      f"A finding in a function whose callers jitlint does not see (a public "
                      f"function nothing in the project calls, or one handed to a library object "
                      f"such as `optax.GradientTransformation(init_fn, update_fn)`) belongs to the "
                      f"opt-in group `{UNKNOWN_CALLERS}`: shown only with `--extend-select "
                      f"{UNKNOWN_CALLERS}` (or `extend-select = [\"{UNKNOWN_CALLERS}\"]` in "
                      f"`[tool.jitlint]`), its message naming the function whose callers are missing. "
                      f"Callers in other modules of the project and notebook cells count."]
        if cls.INVALID:
            parts += ["", "## Example", "", "```python", inspect.cleandoc(cls.INVALID[0]), "```"]
        if cls.VALID:
            parts += ["", "## Use instead", "", "```python", inspect.cleandoc(cls.VALID[0]), "```"]
        return "\n".join(parts).rstrip() + "\n"
