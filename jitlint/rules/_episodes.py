"""Arrays as long as an episode.

A loop that steps until the data says stop (``while not done:``, ``while True: ... if done:
break``, ``for t in range(T): ... if done: break``) runs a number of times that each run
decides.  What it collects per step (``rewards.append(r)`` then ``np.stack(rewards)``, or a
preallocated buffer cut to the steps run, ``buffer[:t + 1]``) is as long as that episode, so a
jitted function handed it compiles once per distinct episode length (measured: gebob19's
REINFORCE, 12 compiles in 34 episodes; fixtures/shape_churn/episode_*).  A loop with a fixed
trip count, or a buffer passed whole with a mask, keeps one shape.
"""
from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jitlint.jaxfacts import SHAPE_KEEPING_CONVERSIONS, SHAPE_KEEPING_METHODS
from jitlint.rules._jitted import name_loads, positional_params
from jitlint.semantic import Binding, Scope, SemanticModel, argument_value
from jitlint.values import (GROW_METHODS, ValueFlow, assigned, elementwise_operands, literal_truth, returned_values,
                            tuple_elements, unpacked_call)
from jitlint.walk import children, iter_nodes, own_nodes
from jitlint.walk import source_text as _src

# NumPy / jax.numpy calls that make one array of a list of per-step values, one row per step.
_STACKERS = frozenset({"array", "asarray", "stack", "vstack", "concatenate"})
_ARRAY_MODULES = ("numpy", "jax.numpy")
# ``np.split(buffer, [...], axis=-1)``: columns of the buffer, each with all its rows.
_SPLITTERS = frozenset({"split", "array_split", "hsplit"})
# ``x = jnp.append(x, r)``: calls that return their first array with rows added.
_GROWERS = frozenset({"append", "concatenate", "vstack", "hstack", "row_stack"})
_DEPTH = 8


@dataclass(frozen=True)
class Episode:
    loop: cst.CSTNode  # the loop that stops on the data
    stop: str  # what ends it, as written: ``while not done``, ``if done: break``
    where: str  # the function that runs it (empty at module level)

    def describe(self) -> str:
        where = f" in `{self.where}`" if self.where else ""
        return (f"an array as long as the episode that the loop{where} ran (`{self.stop}`), "
                f"a new length for each episode")


EPISODE_FIX = ("collect a fixed number of steps (reset the environment when it is done, as "
               "fixed-length rollout buffers do) or pad each episode to the step limit and mask "
               "the padding")


def episode_length(model: SemanticModel, flow: ValueFlow, expr: cst.BaseExpression, scope: Scope,
                   depth: int = 0) -> Optional[Episode]:
    """The episode loop whose trip count ``expr``'s leading length is, where computing ``expr``
    runs that loop anew (in this function, or in a function of the module it calls)."""
    if depth > _DEPTH:
        return None
    if isinstance(expr, cst.Name):
        return _named(model, flow, expr, scope, depth)
    if isinstance(expr, (cst.Tuple, cst.List)):  # a pytree: one episode-long leaf changes its signature
        return next((found for element in expr.elements if not isinstance(element, cst.StarredElement)
                     for found in [episode_length(model, flow, element.value, scope, depth + 1)] if found), None)
    if isinstance(expr, cst.Subscript):
        return _cut_to_steps(model, flow, expr, scope)
    operands = elementwise_operands(expr)
    if operands is not None:
        return next((found for operand in operands
                     for found in [episode_length(model, flow, operand, scope, depth + 1)] if found), None)
    if isinstance(expr, cst.Call):
        return _called(model, flow, expr, scope, depth)
    return None


def _named(model: SemanticModel, flow: ValueFlow, name: cst.Name, scope: Scope, depth: int) -> Optional[Episode]:
    """Every binding reaching the read gives an episode-long value (``r = reward2go(r)`` of
    one, ``obs, a, r = rollout(...)``), or the name is a list that an episode loop fills."""
    bindings = flow.reaching(name, scope)
    if not bindings:
        return None
    pooled = _pooled(model, flow, bindings, depth)
    if pooled is not None:
        return pooled
    if any(_empty_start(model, b) for b in bindings):
        return _collected(model, flow, name, bindings)
    found = None
    for binding in bindings:
        episode = _bound(model, flow, binding, depth) if binding.kind == "assign" else None
        if episode is None:
            return None
        found = found or episode
    return found


def _bound(model: SemanticModel, flow: ValueFlow, binding: Binding, depth: int) -> Optional[Episode]:
    value = assigned(binding).value
    if value is not None:
        return episode_length(model, flow, value, binding.scope, depth + 1)
    unpacked = unpacked_call(binding)
    if unpacked is None:
        return None
    call, position, arity = unpacked
    qualname = model.qualified_name(call.func, binding.scope) or ""
    module, _, function = qualname.rpartition(".")
    if module in _ARRAY_MODULES and function in _SPLITTERS and _across_columns(call) and call.args:
        return episode_length(model, flow, call.args[0].value, binding.scope, depth + 1)
    elements = tuple_elements(returned_values(model, flow, call, binding.scope), position, arity)
    found = None
    for element, element_scope in elements:
        episode = episode_length(model, flow, element, element_scope, depth + 1)
        if episode is None:
            return None
        found = found or episode
    return found


def _across_columns(call: cst.Call) -> bool:
    """``np.split(x, [...], axis=-1)`` / ``axis=1`` / ``np.hsplit``: every part keeps the rows."""
    axis = argument_value(call, 2, "axis")
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "hsplit" \
            or isinstance(call.func, cst.Name) and call.func.value == "hsplit":
        return True
    if isinstance(axis, cst.UnaryOperation) and isinstance(axis.operator, cst.Minus):
        return True
    return isinstance(axis, cst.Integer) and axis.evaluated_value != 0


def _called(model: SemanticModel, flow: ValueFlow, call: cst.Call, scope: Scope, depth: int) -> Optional[Episode]:
    qualname = model.qualified_name(call.func, scope) or ""
    module, _, function = qualname.rpartition(".")
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if module in _ARRAY_MODULES and function in _STACKERS or qualname in SHAPE_KEEPING_CONVERSIONS:
        return episode_length(model, flow, positional[0], scope, depth + 1) if positional else None
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in SHAPE_KEEPING_METHODS:
        return episode_length(model, flow, call.func.value, scope, depth + 1)
    returns = returned_values(model, flow, call, scope)
    found = None
    for returned in returns:
        episode = episode_length(model, flow, returned.value, returned.scope, depth + 1) \
            or _handed_through(model, flow, returned.function, returned.value, returned.scope, call, scope, depth)
        if episode is None:
            return None
        found = found or episode
    return found


def _handed_through(model: SemanticModel, flow: ValueFlow, function: cst.FunctionDef, value: cst.BaseExpression,
                    value_scope: Scope, call: cst.Call, scope: Scope, depth: int) -> Optional[Episode]:
    """``r = reward2go(r)``: the function returns an array of a parameter's length (the
    parameter itself, arithmetic of it: ``(r - r.mean()) / r.std()``), and the call passes an
    episode-long array there."""
    names = [p.name.value for p in positional_params(function)]
    for param in _kept_params(flow, value, value_scope, 0):
        passed = argument_value(call, names.index(param) if param in names else None, param)
        episode = episode_length(model, flow, passed, scope, depth + 1) if passed is not None else None
        if episode is not None:
            return episode
    return None


def _kept_params(flow: ValueFlow, expr: cst.BaseExpression, scope: Scope, depth: int) -> set[str]:
    """The parameters whose length ``expr`` keeps: the parameter read as it came in, through
    rebindings, elementwise arithmetic and shape-keeping methods (a reduction keeps none)."""
    if depth > 4:
        return set()
    if isinstance(expr, cst.Name):
        kept: set[str] = set()
        for binding in flow.reaching(expr, scope):
            if binding.kind == "param":
                kept.add(binding.name)
            elif binding.kind == "assign" and assigned(binding).value is not None:
                inner = _kept_params(flow, assigned(binding).value, binding.scope, depth + 1)
                if not inner:
                    return set()
                kept |= inner
            else:
                return set()
        return kept
    operands = elementwise_operands(expr)
    if operands is not None:
        return set().union(*(_kept_params(flow, operand, scope, depth + 1) for operand in operands))
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) \
            and expr.func.attr.value in SHAPE_KEEPING_METHODS:
        return _kept_params(flow, expr.func.value, scope, depth + 1)
    return set()


def _empty_start(model: SemanticModel, binding: Binding) -> bool:
    """``xs = []`` / ``list()``, or an empty array to grow (``jnp.array([], dtype=...)``)."""
    value = assigned(binding).value if binding.kind == "assign" else None
    if isinstance(value, cst.List) and not value.elements:
        return True
    if not isinstance(value, cst.Call):
        return False
    if isinstance(value.func, cst.Name) and value.func.value == "list":
        return not value.args
    module, _, function = (model.qualified_name(value.func, binding.scope) or "").rpartition(".")
    return module in _ARRAY_MODULES and function in ("array", "asarray") and bool(value.args) \
        and isinstance(value.args[0].value, (cst.List, cst.Tuple)) and not value.args[0].value.elements


def _grown_onto(model: SemanticModel, binding: Binding, name: str) -> bool:
    """``rewards = jnp.append(rewards, r)`` / ``jnp.concatenate([rewards, r])``: one more row."""
    value = assigned(binding).value if binding.kind == "assign" else None
    if not (isinstance(value, cst.Call) and value.args):
        return False
    module, _, function = (model.qualified_name(value.func, binding.scope) or "").rpartition(".")
    first = value.args[0].value
    if isinstance(first, (cst.List, cst.Tuple)) and first.elements:
        first = first.elements[0].value
    return module in _ARRAY_MODULES and function in _GROWERS and isinstance(first, cst.Name) and first.value == name


def _collected(model: SemanticModel, flow: ValueFlow, name: cst.Name, bindings: list[Binding]) -> Optional[Episode]:
    """A list (or an empty array) made before an episode loop that appends to it on every step
    (``observ = []`` ... ``observ.append(obs)``, ``rewards = jnp.append(rewards, r)``), read
    after that loop: one entry per step."""
    starts = [b for b in bindings if _empty_start(model, b)]
    if len(starts) != 1 or any(b is not starts[0] and not _is_extension(b) and not _grown_onto(model, b, name.value)
                               for b in bindings):
        return None
    start = starts[0]
    function_body = start.scope.node
    for loop in _loops(function_body):
        if start.frame is not None and start.frame.is_inside(loop):
            continue  # emptied on every step: not collected over the episode
        if not _appends(loop, name.value) and not any(
                _grown_onto(model, b, name.value) and b.frame is not None and b.frame.is_inside(loop)
                for b in bindings):
            continue
        stop = _open_ended(model, loop, start.scope)
        if stop is not None:
            return Episode(loop, stop, _function_name(start.scope))
    return None


def _pooled(model: SemanticModel, flow: ValueFlow, bindings: list[Binding], depth: int) -> Optional[Episode]:
    """A list extended by whole episodes (``state_pool += list(states)`` of a rollout's
    states, then ``jnp.array(state_pool)`` every few episodes): as long as the episodes pooled
    since it was emptied, a new length at each read."""
    for binding in bindings:
        if not _is_extension(binding):
            continue
        added = binding.node.value  # type: ignore[attr-defined]
        if isinstance(added, cst.Call) and isinstance(added.func, cst.Name) and added.func.value in ("list", "tuple") \
                and not model.lookup(added.func.value, binding.scope) and len(added.args) == 1:
            added = added.args[0].value
        episode = episode_length(model, flow, added, binding.scope, depth + 1)
        if episode is not None:
            return episode
    return None


def _is_extension(binding: Binding) -> bool:
    node = binding.node
    return isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign)


def _appends(loop: cst.CSTNode, name: str) -> bool:
    """The loop body (not a nested def) calls ``name.append(...)`` or ``name += [...]``."""
    for node in _body_nodes(loop):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                and isinstance(node.func.value, cst.Name) and node.func.value.value == name \
                and node.func.attr.value in GROW_METHODS:
            return True
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name) and node.target.value == name \
                and isinstance(node.operator, cst.AddAssign):
            return True
    return False


def _cut_to_steps(model: SemanticModel, flow: ValueFlow, sub: cst.Subscript, scope: Scope) -> Optional[Episode]:
    """``buffer[:t + 1]`` / ``buffer[:t]`` after an episode loop that counts its steps in ``t``
    (its target, or a counter it adds to)."""
    first = sub.slice[0].slice if sub.slice else None
    if not isinstance(first, cst.Slice) or first.step is not None \
            or not (first.lower is None or isinstance(first.lower, cst.Integer) and first.lower.evaluated_value == 0):
        return None
    upper = first.upper
    if isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Add) \
            and isinstance(upper.right, cst.Integer):
        upper = upper.left
    if not isinstance(upper, cst.Name):
        return None
    for binding in flow.reaching(upper, scope):
        loop = binding.node if binding.kind == "loop-target" else _enclosing_loop(binding)
        if loop is None or (binding.kind != "loop-target" and not _is_step_count(binding)):
            continue
        stop = _open_ended(model, loop, scope)
        if stop is not None and not _within(sub, loop):
            return Episode(loop, stop, _function_name(scope))
    return None


def _function_name(scope: Scope) -> str:
    return scope.node.name.value if isinstance(scope.node, cst.FunctionDef) else ""


def _is_step_count(binding: Binding) -> bool:
    node = binding.node
    return isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign) \
        and isinstance(node.value, cst.Integer)


def _enclosing_loop(binding: Binding) -> Optional[cst.CSTNode]:
    frame = binding.frame
    loops = frame.loops_in_scope() if frame is not None else []
    return loops[0] if loops else None


def _open_ended(model: SemanticModel, loop: cst.CSTNode, scope: Scope) -> Optional[str]:
    """What ends a loop whose trip count the data decides: the test of ``while not done:``,
    or of the ``if`` that breaks out of ``while True:`` / ``for t in range(T):`` on a value the
    loop computes; None for a loop that runs a fixed number of times."""
    if isinstance(loop, cst.While):
        if literal_truth(loop.test) is True:
            return _break_test(model, loop, scope, any_test=True)
        if _computed_in(model, loop.test, loop, scope):
            return f"while {_src(loop.test, 60)}"
        return _break_test(model, loop, scope)
    if isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call) and isinstance(loop.iter.func, cst.Name) \
            and loop.iter.func.value == "range" and not model.lookup("range", scope):
        return _break_test(model, loop, scope)
    return None


def _break_test(model: SemanticModel, loop: cst.CSTNode, scope: Scope, any_test: bool = False) -> Optional[str]:
    """The test of an ``if`` in the loop whose body breaks out (``if done: break``), when it
    reads a value the loop computes (or any test, for ``while True``)."""
    for node in _body_nodes(loop):
        if isinstance(node, cst.If) and _breaks(node.body) \
                and (any_test or _computed_in(model, node.test, loop, scope)):
            return f"if {_src(node.test, 60)}: break"
    return None


def _breaks(body: cst.BaseSuite) -> bool:
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    return any(isinstance(small, cst.Break) for statement in statements
               for small in (statement.body if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite))
                             else []))


def _computed_in(model: SemanticModel, test: cst.BaseExpression, loop: cst.CSTNode, scope: Scope,
                 depth: int = 0) -> bool:
    """The test reads a name the loop body assigns from a call or unpacking (``obs, r, done, _
    = env.step(a)``), or from names it computes so (``done = term or trunc``), not only a step
    counter."""
    for name in name_loads(test):
        for binding in model.lookup(name.value, scope):
            if binding.frame is None or not binding.frame.is_inside(loop) or binding.kind != "assign" \
                    or not isinstance(binding.node, cst.Assign) or _is_step_count(binding):
                continue
            value = binding.node.value
            if isinstance(value, cst.Call) or unpacked_call(binding) is not None \
                    or isinstance(binding.node.targets[0].target, (cst.Tuple, cst.List)):
                return True
            if depth < 2 and isinstance(value, (cst.BooleanOperation, cst.Comparison, cst.UnaryOperation)) \
                    and (any(isinstance(node, cst.Call) for node in iter_nodes(value))
                         or _computed_in(model, value, loop, scope, depth + 1)):
                return True  # ``done = term or trunc``, ``done = rng.random() < p``
    return False


_NESTED = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def _body_nodes(loop: cst.CSTNode):
    """The nodes of the loop's body and test, not those of nested defs or nested loops' own
    ``break`` targets (a ``break`` in an inner loop ends that loop)."""
    stack = [loop.body] + ([loop.orelse] if getattr(loop, "orelse", None) else [])
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, _NESTED) or isinstance(current, (cst.For, cst.While)):
            continue
        stack.extend(children(current))


def _loops(node: cst.CSTNode):
    """The ``for`` and ``while`` loops in a function body (not in nested defs)."""
    return (current for current in own_nodes(node) if isinstance(current, (cst.For, cst.While)))


def _within(node: cst.CSTNode, loop: cst.CSTNode) -> bool:
    return any(child is node for child in iter_nodes(loop))
