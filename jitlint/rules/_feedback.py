"""Analysis for JIT510: a jitted function's output fed back as its own input with another
shape.  ``state = step(state, x)`` in a loop compiles once per distinct input shape, so a
step that returns ``state`` grown (``jnp.concatenate([state, x])``, ``jnp.pad(state, ...)``,
``state[None]``, ``jnp.expand_dims(state, 0)``) compiles on every iteration, and one whose
result gains axes from ``keepdims=True`` (a running mean of a 2-d batch kept with
``keepdims=True`` while the initial state is ``zeros(5)``) compiles twice.

Only shapes the code shows are used: the fed-back value is the parameter itself inside the
growing call (a slice of it, ``state[:, 1:]``, keeps a sliding window fixed and is silent),
and for ``keepdims`` the ranks of the initial value and of the reduced argument come from
literal constructors (``jnp.zeros((8, 5))``, ``jax.random.normal(key, (8, 5))``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jitlint.jaxfacts import (DTYPE_KEEPING_METHODS, LEAF_CASTING_UPDATES, OPTAX_SCHEDULES, OPTAX_TRANSFORMATIONS, STATIC_STATE_FIELD_NAMES,
                               WEAK_STATE_OPTIMIZERS)
from jitlint.rule import FileContext
from jitlint.rules._context import calling_context
from jitlint.rules._instances import pytree_instance, string_keys
from jitlint.rules._builders import receiver_built_by
from jitlint.rules._churn import argument_types
from jitlint.rules._jitted import JittedCall, jitted_calls, jitted_functions, positional_params
from jitlint.walk import own_nodes, own_nodes_in_order
from jitlint.semantic import Binding, Frame, Scope, SemanticModel, target_names
from jitlint.values import array_rank, assigned, code_text, conditional_within, unpacked_call, value_flow
from jitlint.walk import iter_nodes

ARRAY_MODULES = ("jax.numpy.", "numpy.")
GROWERS = {"concatenate": "grows it", "append": "grows it", "hstack": "grows it", "vstack": "grows it",
           "column_stack": "grows it", "stack": "adds an axis", "pad": "grows it", "expand_dims": "adds an axis"}
AT_UPDATES = frozenset({"set", "add", "multiply", "divide", "power", "min", "max", "apply"})


@dataclass(eq=False)
class Feedback:
    call: JittedCall
    node: cst.CSTNode  # the fed-back argument
    name: str  # the variable fed back
    how: str  # what changes its shape
    every_call: bool  # grows on every call (else changes once)
    fix: str = ""  # the advice, where it is not JIT510's default (keep the shape fixed)


def feedbacks(ctx: FileContext) -> list[Feedback]:
    return ctx.shared("shape-feedback", _analyse)


def _analyse(ctx: FileContext) -> list[Feedback]:
    found = []
    for fed in fed_back(ctx):
        if fed.param is None:
            continue
        change = _changed_output(fed.jc.func, fed.param, fed.position, fed.arity, ctx.model, fed.jc, fed.frame,
                                 fed.name, value_flow(ctx))
        if change is not None:
            found.append(Feedback(fed.jc, fed.arg, fed.name, *change))
    return found


@dataclass(eq=False)
class FedBack:
    """``state = step(state, x)`` (or ``params, state = step(params, state)``) in a loop: a
    traced argument of a jitted def or lambda that the call's own output replaces.  Also
    ``out = learn(state)`` then ``state = out["runner_state"]`` in the loop, for a jitted
    function whose def may be unknown (a factory's): then ``param`` is None, and only the
    argument's first value and the classes the trace builds say what comes back."""

    jc: JittedCall
    arg: cst.Name  # the argument fed back
    name: str
    param: Optional[str]  # the jitted function's parameter it goes to (None: the output's part unknown)
    position: int  # its place among the outputs
    arity: int  # the number of outputs unpacked (0: one output)
    frame: Frame  # where the call runs
    feeds: tuple[cst.CSTNode, ...]  # the statements that store the output back in ``name``


def fed_back(ctx: FileContext) -> list[FedBack]:
    return ctx.shared("fed-back-arguments", _fed_back)


def _fed_back(ctx: FileContext) -> list[FedBack]:
    model, flow = ctx.model, value_flow(ctx)
    jitted = set(jitted_functions(ctx))
    found = []
    for jc in jitted_calls(ctx):
        func = jc.func
        site = model.call_site_of[jc.call]
        if any(frame.node in jitted for frame in site.frame) or not site.frame.loops_in_scope():
            continue
        statement = model.parent_statement.get(jc.call)
        if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
            continue
        target = statement.targets[0].target
        outputs = target_names(target)
        known = isinstance(func, (cst.FunctionDef, cst.Lambda)) and jc.static_args is not None
        params = jc.params() if known else []
        positional = [a for a in jc.call.args if a.keyword is None and not a.star]
        for index, arg in enumerate(positional):
            if not isinstance(arg.value, cst.Name) or (known and (index >= len(params) or jc.static_args[index])):
                continue
            name = arg.value.value
            if name in outputs:
                if not any(b.node is statement for b in flow.reaching(arg.value, site.frame.scope)):
                    continue  # rebound from a fresh value earlier in the iteration: not carried over
                found.append(FedBack(jc, arg.value, name, params[index].name.value if known else None,
                                     outputs.index(name),
                                     len(outputs) if isinstance(target, (cst.Tuple, cst.List)) else 0,
                                     site.frame, (statement,)))
                continue
            feeds = tuple(b.node for b in flow.reaching(arg.value, site.frame.scope)
                          if _part_of_output(assigned(b).value, outputs))
            if feeds:
                found.append(FedBack(jc, arg.value, name, None, -1, 0, site.frame, feeds))
    return found


@dataclass(eq=False)
class FreshStaticField:
    """``state = state.replace(tx=optax.chain(...))`` in a jitted function whose returned state
    is fed back to it: a static field given an object made in the trace."""

    fed: FedBack
    replace: cst.Call  # the ``.replace(...)`` call
    field: str
    made: cst.BaseExpression  # the object stored there


# a train state's methods that return it with its static fields as they are
STATE_KEEPING_METHODS = frozenset({"apply_gradients", "replace"})


def fresh_static_fields(ctx: FileContext) -> list[FreshStaticField]:
    found = []
    for fed in fed_back(ctx):
        func = fed.jc.func
        if fed.param is None or not isinstance(func, cst.FunctionDef):
            continue
        made = _fresh_static_field(func, fed.position, fed.arity, ctx.model)
        if made is not None:
            found.append(FreshStaticField(fed, *made))
    return found


def _fresh_static_field(func: cst.FunctionDef, position: int, arity: int, model: SemanticModel):
    """(the ``.replace`` call, the field, the object) when every ``return`` of ``func`` gives
    output ``position`` as a name that the body rebinds to ``<name>.replace(<static field>=X)``,
    X an object made in the trace that hashes by identity (an optax transformation or schedule,
    a lambda)."""
    scope = model.scope_of[func]
    returned = [n.value for n in own_nodes(func.body) if isinstance(n, cst.Return)]
    found = None
    for value in returned:
        if arity:
            if not isinstance(value, (cst.Tuple, cst.List)) or len(value.elements) != arity:
                return None
            value = value.elements[position].value
        calls = []  # ``return state.replace(tx=...).apply_gradients(grads=grads)``
        while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and value.func.attr.value in STATE_KEEPING_METHODS:
            calls.append(value)
            value = value.func.value
        if not isinstance(value, cst.Name):
            return None
        calls += [b.value for b in model.lookup(value.value, scope)
                  if b.scope is scope and b.kind == "assign" and isinstance(b.value, cst.Call)]
        hit = next((made for call in calls if (made := _fresh_replacement(call, scope, model)) is not None), None)
        if hit is None:
            return None
        found = found or hit
    return found


def _fresh_replacement(call: cst.Call, scope: Scope, model: SemanticModel):
    """``x.replace(tx=optax.adam(...))``: (the call, the field, the object)."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "replace"):
        return None
    for arg in call.args:
        made = _local_value(arg.value, scope, model)
        if arg.keyword is not None and arg.keyword.value in STATIC_STATE_FIELD_NAMES and _made_by_identity(made, scope, model):
            return call, arg.keyword.value, made
    return None


@dataclass(eq=False)
class ReplacedInLoop:
    """``state = state.replace(tx=optax.adam(lr))`` run in the loop that calls a jitted function
    with ``state`` (or, for ``self.state``, in a method of the class the loop calls): the static
    field holds a new object each time it runs."""

    jc: JittedCall
    replace: cst.Call
    field: str
    made: cst.BaseExpression
    loop: cst.CSTNode
    conditional: bool  # the replacement runs under an ``if`` (now and then, not every iteration)


def static_fields_replaced_in_loops(ctx: FileContext) -> list[ReplacedInLoop]:
    return ctx.shared("static-fields-replaced-in-loops", _static_fields_replaced_in_loops)


def _static_fields_replaced_in_loops(ctx: FileContext) -> list[ReplacedInLoop]:
    model, flow = ctx.model, value_flow(ctx)
    jitted = set(jitted_functions(ctx))
    context = calling_context(ctx)
    found = []
    for jc in jitted_calls(ctx):
        site = model.call_site_of[jc.call]
        loops = site.frame.loops_in_scope()
        if not loops or any(frame.node in jitted for frame in site.frame):
            continue
        loop = loops[-1]  # the outermost loop of the function: an epoch loop holds the batch loop
        for _, arg in jc.passed():
            writes: list[tuple[cst.Assign, Scope, bool]] = []
            if isinstance(arg.value, cst.Name):
                writes = [(b.node, b.scope, conditional_within(b, loop)) for b in flow.reaching(arg.value, site.frame.scope)
                          if isinstance(b.node, cst.Assign) and b.frame is not None and b.frame.is_inside(loop)]
            elif isinstance(arg.value, cst.Attribute) and isinstance(arg.value.value, cst.Name) \
                    and arg.value.value.value == "self":
                writes = _self_writes_in_loop(model, context, arg.value.attr.value, loop, site.frame.scope)
            for statement, scope, conditional in writes:
                if not isinstance(statement.value, cst.Call):
                    continue
                made = _fresh_replacement(statement.value, scope, model)
                if made is not None:
                    found.append(ReplacedInLoop(jc, *made, loop, conditional))
                    break
    return found


def _self_writes_in_loop(model: SemanticModel, context, attr: str, loop: cst.CSTNode, scope: Scope
                         ) -> list[tuple[cst.Assign, Scope, bool]]:
    """``self.<attr> = ...`` statements run by the loop: in its body, or in a method it calls on
    ``self`` (``self.update_learning_rate(lr)``), with whether an ``if`` guards them."""
    found = []
    for call in (n for n in iter_nodes(loop) if isinstance(n, cst.Call)):
        method = context.callee(call, scope) if isinstance(call.func, cst.Attribute) \
            and isinstance(call.func.value, cst.Name) and call.func.value.value == "self" else None
        bodies = [(method, model.scope_of.get(method))] if method is not None else []
        for body, body_scope in bodies:
            if body_scope is None:
                continue
            for node in own_nodes(body.body):
                if isinstance(node, cst.Assign) and len(node.targets) == 1 \
                        and isinstance(node.targets[0].target, cst.Attribute) \
                        and isinstance(node.targets[0].target.value, cst.Name) \
                        and node.targets[0].target.value.value == "self" and node.targets[0].target.attr.value == attr:
                    found.append((node, body_scope, _under_if(body, node)))
    for node in iter_nodes(loop):
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Attribute) \
                and isinstance(node.targets[0].target.value, cst.Name) and node.targets[0].target.value.value == "self" \
                and node.targets[0].target.attr.value == attr:
            found.append((node, scope, _under_if(loop, node)))
    return found


def _under_if(container: cst.CSTNode, statement: cst.CSTNode) -> bool:
    """``statement`` sits under an ``if`` inside ``container``."""
    return any(isinstance(node, cst.If) and any(inner is statement for inner in iter_nodes(node))
               for node in iter_nodes(container) if node is not statement)


def _made_by_identity(expr: cst.BaseExpression, scope: Scope, model: SemanticModel) -> bool:
    if isinstance(expr, cst.Lambda):
        return True
    return isinstance(expr, cst.Call) and model.qualified_name(expr.func, scope) in OPTAX_TRANSFORMATIONS | OPTAX_SCHEDULES


def _part_of_output(value: Optional[cst.BaseExpression], outputs: list[Optional[str]]) -> bool:
    """``out["runner_state"]`` / ``out.learner_state`` / ``out[0]`` of a name the call binds."""
    if not isinstance(value, (cst.Subscript, cst.Attribute)):
        return False
    while isinstance(value, (cst.Subscript, cst.Attribute)):
        value = value.value
    return isinstance(value, cst.Name) and value.value in outputs


def _changed_output(func, param: str, position: int, arity: int,
                    model: SemanticModel, jc: JittedCall, frame: Frame, fed: str, flow):
    """(how, every_call) when every return of ``func`` (a def, or a lambda's body) gives output
    ``position`` a shape that differs from the ``param`` it was fed; None when unsure.  A
    returned name rebound in branches (``if cache is not None: cache = jnp.concatenate((cache,
    k)) else: cache = k[None]``) grows when one definition reaching the return grows the
    parameter and none is the parameter as received."""
    scope = model.scope_of[func]
    returned = [func.body] if isinstance(func, cst.Lambda) else \
        [n.value for n in own_nodes(func.body) if isinstance(n, cst.Return)]
    if not returned:
        return None
    changes = []
    for value in returned:
        if arity:
            if not isinstance(value, (cst.Tuple, cst.List)) or len(value.elements) != arity:
                return None
            value = value.elements[position].value
        change = _grows(value, param, scope, model, 0) or _shrinks(value, param, scope, model, 0) or \
            _keepdims_rank(value, param, func, model, jc, frame, fed) or next(
                (grown for leaf in _container_leaves(_local_value(value, scope, model), scope, model)
                 if (grown := _grows(leaf, param, scope, model, 0, fields=True)) is not None), None) or \
            _grown_in_a_branch(value, param, scope, model, flow)
        if change is None:
            return None
        changes.append(change)
    return changes[0]


def _grown_in_a_branch(value: cst.BaseExpression, param: str, scope: Scope, model: SemanticModel, flow):
    if not isinstance(value, cst.Name):
        return None
    reaching = flow.reaching(value, scope)
    if not reaching or any(b.kind != "assign" or b.value is None or b.scope is not scope for b in reaching):
        return None  # the parameter itself may reach the return unchanged
    return next((grown for b in reaching if (grown := _grows(b.value, param, scope, model, 0)) is not None), None)


def _local_value(expr: cst.BaseExpression, scope: Scope, model: SemanticModel) -> cst.BaseExpression:
    """A name assigned once in the function: its value (``new = jnp.concatenate(...)``)."""
    if isinstance(expr, cst.Name):
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.scope is scope and binding.kind == "assign" \
                and binding.value is not None:
            return binding.value
    return expr


def _container_leaves(expr: cst.BaseExpression, scope: Scope, model: SemanticModel) -> list[cst.BaseExpression]:
    """The parts of a returned pytree display: ``{"keys": keys, ...}``, ``(keys, values)``,
    ``dict(keys=keys)`` or a class of the module built from them (``KVCache(keys=k, ...)``)."""
    if isinstance(expr, cst.Dict):
        return [e.value for e in expr.elements if isinstance(e, cst.DictElement)]
    if isinstance(expr, (cst.Tuple, cst.List)):
        return [e.value for e in expr.elements if isinstance(e, cst.Element)]
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and (
            expr.func.value == "dict" and not model.lookup("dict", scope)
            or any(isinstance(b.node, cst.ClassDef) for b in model.lookup(expr.func.value, scope))):
        return [a.value for a in expr.args if not a.star]
    return []


def _grows(expr, param: str, scope: Scope, model: SemanticModel, depth: int, fields: bool = False):
    """How ``expr`` is ``param`` grown (``jnp.concatenate([state, x])``), and that it grows on
    every call; ``fields``: also a field of it (``cache["keys"]``, ``cache.keys``), the part a
    returned pytree display puts back."""
    expr = _local_value(expr, scope, model)
    if isinstance(expr, cst.Subscript) and _is_param(expr.value, param) and any(
            isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Name)
            and e.slice.value.value == "None" for e in expr.slice):
        return "indexing with None adds an axis", True
    if not isinstance(expr, cst.Call):
        return None
    kept = _shape_kept_from(expr)
    if kept is not None:
        return _grows(kept, param, scope, model, depth + 1, fields) if depth < 4 else None
    qualname = model.qualified_name(expr.func, scope) or ""
    if not qualname.startswith(ARRAY_MODULES):
        return None
    leaf = qualname.rsplit(".", 1)[-1]
    if leaf not in GROWERS or not expr.args:
        return None
    first = expr.args[0].value
    if leaf in ("concatenate", "hstack", "vstack", "column_stack", "stack"):
        if not isinstance(first, (cst.List, cst.Tuple)) or len(first.elements) < 2 \
                or not any(_is_param(e.value, param, fields) for e in first.elements):
            return None
    elif not _is_param(first, param, fields):
        return None
    if leaf == "pad" and _zero_padding(expr):
        return None
    return f"{code_text(expr.func)} {GROWERS[leaf]}", True  # as written: ``jnp.concat`` is ``concatenate``


def _shrinks(expr, param: str, scope: Scope, model: SemanticModel, depth: int):
    """``x[::2] + x[1::2]``, ``x[1:]``, ``x[:-1]``: a slice of the parameter that drops
    elements whatever its length (a literal step of 2 or more, a literal start of 1 or more
    with no stop, a negative literal stop), or arithmetic of such slices with each other or
    with a number."""
    expr = _local_value(expr, scope, model)
    if isinstance(expr, cst.Subscript) and _is_param(expr.value, param):
        for element in expr.slice:
            if isinstance(element.slice, cst.Slice) and _drops_elements(element.slice):
                shown = cst.Module([]).code_for_node(expr)
                return f"`{shown}` drops elements", True, (
                    "run the whole loop inside one jitted function, where each level's shape is "
                    "known while tracing, or keep the length fixed and mask the dropped elements")
        return None
    if isinstance(expr, cst.BinaryOperation) and depth < 4:
        left = _shrinks(expr.left, param, scope, model, depth + 1)
        right = _shrinks(expr.right, param, scope, model, depth + 1)
        numbers = (cst.Integer, cst.Float)
        if left and (right or isinstance(expr.right, numbers)):
            return left
        if right and isinstance(expr.left, numbers):
            return right
    return None


def _drops_elements(part: cst.Slice) -> bool:
    def literal(node) -> Optional[int]:
        if isinstance(node, cst.Integer):
            return int(node.value, 0)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) \
                and isinstance(node.expression, cst.Integer):
            return -int(node.expression.value, 0)
        return None
    step, lower, upper = (literal(part.step) if part.step is not None else None,
                          literal(part.lower) if part.lower is not None else None,
                          literal(part.upper) if part.upper is not None else None)
    if part.step is not None and (step is None or step < 2 and step > -2):
        return False  # a step we cannot read, or of 1
    if step is not None and step >= 2 and part.lower is None and part.upper is None:
        return True
    if part.upper is None and lower is not None and lower >= 1:
        return True
    return part.lower is None or (lower is not None and lower >= 0) if upper is not None and upper < 0 else False


def _shape_kept_from(call: cst.Call) -> Optional[cst.BaseExpression]:
    """``x.at[i].set(v)`` / ``x.astype(t)``: the array whose shape the result keeps."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return None
    if func.attr.value == "astype":
        return func.value
    if func.attr.value in AT_UPDATES and isinstance(func.value, cst.Subscript) \
            and isinstance(func.value.value, cst.Attribute) and func.value.value.attr.value == "at":
        return func.value.value.value
    return None


def _zero_padding(call: cst.Call) -> bool:
    if len(call.args) < 2:
        return True
    widths = _ints(call.args[1].value)
    return bool(widths) and all(width == 0 for width in widths)


def _ints(expr) -> list[int]:
    """The pad widths of a literal; a non-literal counts as a nonzero width."""
    if isinstance(expr, cst.Integer):
        return [int(expr.value, 0)]
    if isinstance(expr, (cst.Tuple, cst.List)):
        return [v for e in expr.elements for v in _ints(e.value)]
    return [-1]


def _is_param(expr, param: str, fields: bool = False) -> bool:
    """``expr`` is ``param``; with ``fields``, also a field of it by name or string key (not a
    slice: ``window[1:]`` keeps a sliding window's length)."""
    while fields and (isinstance(expr, cst.Attribute) or isinstance(expr, cst.Subscript) and len(expr.slice) == 1
                      and isinstance(expr.slice[0].slice, cst.Index)
                      and isinstance(expr.slice[0].slice.value, cst.SimpleString)):
        expr = expr.value
    return isinstance(expr, cst.Name) and expr.value == param


def _keepdims_rank(expr, param: str, func, model: SemanticModel,
                   jc: JittedCall, frame: Frame, fed: str):
    """``0.9 * state + 0.1 * jnp.mean(batch, axis=0, keepdims=True)`` with ``state`` fed from
    ``zeros(5)`` and ``batch`` from ``ones((8, 5))``: the output has the batch's rank."""
    scope = model.scope_of[func]
    expr = _local_value(expr, scope, model)
    if not isinstance(expr, cst.BinaryOperation):
        return None
    sides = [expr.left, expr.right]
    if not any(_mentions(side, param) for side in sides):
        return None
    reduced = [operand for side in sides for operand in _keepdims_operands(side, scope, model, 0)]
    if not reduced:
        return None
    initial = _initial_rank(fed, jc, frame, model)
    if initial is None:
        return None
    params = [p.name.value for p in positional_params(func)]
    positional = [a for a in jc.call.args if a.keyword is None and not a.star]
    for operand in reduced:
        if isinstance(operand, cst.Name) and operand.value in params:
            index = params.index(operand.value)
            if index < len(positional):
                rank = array_rank(model, positional[index].value, frame.scope, frame)
                if rank is not None and rank > initial:
                    return "keepdims=True keeps the reduced axes", False
    return None


def _mentions(expr: cst.CSTNode, name: str) -> bool:
    return any(isinstance(n, cst.Name) and n.value == name for n in iter_nodes(expr))


def _keepdims_operands(expr, scope: Scope, model: SemanticModel, depth: int) -> list[cst.BaseExpression]:
    """What ``expr`` reduces with ``keepdims=True``: ``jnp.mean(x, 0, keepdims=True)`` and
    ``x.mean(0, keepdims=True)`` -> x; through names assigned once in the function and through
    a helper def of the module that returns such a reduction of its parameter
    (``batch_mean(batch)`` -> batch)."""
    found: list[cst.BaseExpression] = []
    if depth > 2:
        return found
    for node in iter_nodes(expr):
        if isinstance(node, cst.Name) and node is not expr:
            value = _local_value(node, scope, model)
            if value is not node:
                found += _keepdims_operands(value, scope, model, depth + 1)
        if not isinstance(node, cst.Call):
            continue
        keeps = any(a.keyword is not None and a.keyword.value == "keepdims"
                    and isinstance(a.value, cst.Name) and a.value.value == "True" for a in node.args)
        qualname = model.qualified_name(node.func, scope) or ""
        if keeps and qualname.startswith(ARRAY_MODULES) and node.args and node.args[0].keyword is None:
            found.append(node.args[0].value)
        elif keeps and isinstance(node.func, cst.Attribute) and not qualname:
            found.append(node.func.value)  # a method of the array: x.mean(0, keepdims=True)
        elif isinstance(node.func, cst.Name):
            found += _helper_operands(node, scope, model, depth)
    return found


def _helper_operands(call: cst.Call, scope: Scope, model: SemanticModel, depth: int) -> list[cst.BaseExpression]:
    """``batch_mean(batch)`` where ``def batch_mean(x): return jnp.mean(x, 0, keepdims=True)``:
    the arguments given to the parameters the helper reduces with keepdims."""
    bindings = model.lookup(call.func.value, scope)  # type: ignore[attr-defined]
    if len(bindings) != 1 or bindings[0].kind != "def" or not isinstance(bindings[0].node, cst.FunctionDef):
        return []
    helper = bindings[0].node
    helper_scope = model.scope_of[helper]
    params = [p.name.value for p in positional_params(helper)]
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    found: list[cst.BaseExpression] = []
    for ret in (n for n in own_nodes(helper.body) if isinstance(n, cst.Return) and n.value is not None):
        for operand in _keepdims_operands(ret.value, helper_scope, model, depth + 1):
            if isinstance(operand, cst.Name) and operand.value in params \
                    and params.index(operand.value) < len(positional):
                found.append(positional[params.index(operand.value)])
    return found


def _initial_rank(name: str, jc: JittedCall, frame: Frame, model: SemanticModel) -> Optional[int]:
    """The rank of the value ``name`` holds before the loop: its one binding outside it."""
    loops = frame.loops_in_scope()
    outer = [b for b in model.lookup(name, frame.scope)
             if b.frame is not None and not any(b.frame.is_inside(loop) for loop in loops)]
    if len(outer) != 1 or outer[0].kind != "assign" or outer[0].value is None:
        return None
    binding = outer[0]
    return array_rank(model, binding.value, binding.scope, binding.frame)


@dataclass(eq=False)
class WeakStart:
    """A fed-back optimizer state whose first value is an ``init`` state with weakly typed
    leaves (jaxfacts.WEAK_STATE_OPTIMIZERS): the step returns them strongly typed."""

    fed: FedBack
    init: cst.Call  # ``solver.init(params)``
    optimizer: str  # the optax call that built the solver


def weak_state_starts(ctx: FileContext) -> list[WeakStart]:
    model, flow = ctx.model, value_flow(ctx)
    found = []
    for fed in fed_back(ctx):
        for binding in flow.reaching(fed.arg, fed.frame.scope):
            if binding.node in fed.feeds:
                continue  # the loop's own update
            value = assigned(binding).value
            if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                    and value.func.attr.value == "init" and binding.frame is not None):
                continue
            optimizer = receiver_built_by(value.func.value, binding.scope, binding.frame, model,
                                          lambda qualname, _: qualname in WEAK_STATE_OPTIMIZERS)
            if optimizer is not None:
                found.append(WeakStart(fed, value, optimizer))
                break
    return found


# ------------------------------------------------------------------ weakly typed state fields
# jax.random draws and comparisons give strongly typed arrays (a comparison is bool, never weak).
STRONG_RESULT_MODULES = ("jax.random.",)
DATACLASS_REPLACERS = frozenset({"dataclasses.replace"})
REPLACE_METHODS = frozenset({"replace", "_replace"})


@dataclass(eq=False)
class WeakField:
    """A pytree state fed back through a jitted step whose first value holds a weakly typed
    scalar in a leaf field (a Python ``int``/``float``, or ``jnp.asarray`` of one without a
    dtype: ``n_accepted: int = 0``, ``Data(time=jnp.asarray(0.0))``) that the step stores back
    strongly typed (combined with an array of a dtype of its own): the second call's
    signature differs from the first, so the step compiles twice (netket PR #1021, mujoco#2306).
    The state may sit inside what is fed back (``runner_state = (params, env_state, ts)``) and
    come from a function or method that builds it (an environment wrapper's ``reset``); the
    step may store the field by building the class again in traced code (the wrapper's
    ``step``, run by a ``lax.scan`` in the jitted learner: Stoix PR #100, Mava PR #906)."""

    fed: FedBack
    cls: Optional[str]  # the state's class (None: a dict)
    field: str
    kind: str  # "int" | "float": the Python scalar kind it starts as
    start: cst.BaseExpression  # the weakly typed value (a class default or a constructor argument)
    stored: cst.BaseExpression  # what the step stores in the field
    made: cst.CSTNode  # the construction (or dict display) that holds ``start``


def weak_field_starts(ctx: FileContext) -> list[WeakField]:
    return ctx.shared("weak-state-fields", _weak_field_starts)


def _weak_field_starts(ctx: FileContext) -> list[WeakField]:
    model, flow = ctx.model, value_flow(ctx)
    types = argument_types(ctx)
    found = []
    for fed in fed_back(ctx):
        # (``state = {...}`` in each branch of an ``if``: each start is judged)
        starts = [b for b in flow.reaching(fed.arg, fed.frame.scope) if b.node not in fed.feeds]
        seen: set[str] = set()
        for instance in (i for start in starts for i in _held_instances(ctx, start, 0)):
            cls, fields = instance.cls, instance.fields
            kinds: dict[str, Kind] = {}
            for field, (value, scope) in fields.items():
                kind = types.kind(value, scope)
                if kind is not None and kind[0] in ("python int", "python float"):
                    kinds[field] = (kind[0].split()[1], True)
                elif kind is not None and kind[0] == "strong":
                    kinds[field] = UNKNOWN_ARRAY
            weak = [f for f, k in kinds.items() if k[1]]
            if not weak:
                continue
            if instance.whole and fed.param and (stored := _stored_by_every_return(fed, model, flow)):
                param = fed.param
                step_scope = model.scope_of[fed.jc.func]
                stored_fields = [{f: (s.call if isinstance(s, _EveryField) else s[f], step_scope)
                                  for f in (fields if isinstance(s, _EveryField) else s)} for s in stored]
                every_return = True  # each return of the step stores the field
            elif isinstance(cls, cst.ClassDef):
                # the class built again in traced code (a wrapper's ``step`` under the jitted learner)
                param, stored_fields, every_return = None, _traced_constructions(ctx).get(cls, []), False
            else:
                continue
            evaluate = _KindOf(model, flow, types, param, kinds, _passed_kinds(ctx, fed.jc.func) if param else {})
            for field in weak:
                values = [s.get(field) for s in stored_fields]
                strong = [v for v, scope in filter(None, values) if evaluate(v, scope) in STRONG_KINDS]
                if strong and (not every_return or len(strong) == len(values)) and field not in seen:
                    seen.add(field)
                    value, scope = fields[field]
                    found.append(WeakField(fed, cls.name.value if isinstance(cls, cst.ClassDef) else None,
                                           field, kinds[field][0], value, strong[0], instance.made))
    return found


@dataclass(eq=False)
class _Instance:
    cls: cst.ClassDef | cst.Dict
    fields: dict[str, tuple[cst.BaseExpression, Scope]]  # each leaf field's value
    made: cst.CSTNode  # the construction call (or the dict display)
    whole: bool  # the instance is the whole value fed back (not an element of it)


def _held_instances(ctx: FileContext, binding: Binding, depth: int, whole: bool = True) -> list[_Instance]:
    """The pytree instances the value ``binding`` assigns holds: the value itself
    (``pytree_instance``), the elements of a tuple or list display, the names they read, and
    an element of what a def or method of this module returns when the binding unpacks its
    call (``env_state, timestep = env.reset(key)``, also ``jax.vmap(env.reset)(keys)``)."""
    if depth > 3:
        return []
    value = assigned(binding).value
    if value is not None:
        return _instances_in(ctx, value, binding.scope, depth, whole)
    return [i for value, scope in calling_context(ctx).unpacked_values(binding)
            for i in _instances_in(ctx, value, scope, depth + 1, whole)]


def _instances_in(ctx: FileContext, expr: cst.BaseExpression, scope: Scope, depth: int,
                  whole: bool) -> list[_Instance]:
    made = pytree_instance(ctx, expr, scope, 0)
    if made is not None:
        return [_Instance(made[0], made[1], made[2], whole)]
    if isinstance(expr, (cst.Tuple, cst.List)):
        return [i for e in expr.elements if not isinstance(e, cst.StarredElement)
                for i in _instances_in(ctx, e.value, scope, depth, False)]
    if isinstance(expr, cst.Name):
        reaching = value_flow(ctx).reaching(expr, scope)
        return _held_instances(ctx, reaching[0], depth + 1, whole) if len(reaching) == 1 else []
    return []


def _traced_constructions(ctx: FileContext) -> dict[cst.ClassDef, list[dict[str, tuple[cst.BaseExpression, Scope]]]]:
    return ctx.shared("traced-pytree-constructions", _find_traced_constructions)


def _find_traced_constructions(ctx: FileContext):
    """Each pytree class of this module -> the leaf fields of each ``Cls(...)`` call made in
    code that runs traced (a wrapper's ``step`` under the learner's jit)."""
    model, context = ctx.model, calling_context(ctx)
    found: dict[cst.ClassDef, list] = {}
    for site in model.calls:
        if not isinstance(site.node.func, cst.Name) or not context.runs_traced(site.frame):
            continue
        binding = model.single_binding(site.node.func.value, site.frame.scope)
        if binding is None or binding.kind != "class":
            continue
        made = pytree_instance(ctx, site.node, site.frame.scope, 0)
        if made is not None and made[0] is binding.node:
            found.setdefault(binding.node, []).append(made[1])
    return found


def _stored_by_every_return(fed: FedBack, model: SemanticModel, flow) -> list[dict[str, cst.BaseExpression]]:
    """For each return of the step, the fields its fed-back output sets (``state.replace(n=v)``,
    ``dataclasses.replace(state, n=v)``, ``state._replace(n=v)``, through a local name); empty
    when a return's output is not one of those."""
    func = fed.jc.func
    scope = model.scope_of[func]
    returned = [func.body] if isinstance(func, cst.Lambda) else \
        [n.value for n in own_nodes(func.body) if isinstance(n, cst.Return)]
    written = _item_writes(func, fed.param) if isinstance(func, cst.FunctionDef) else {}
    found = []
    for value in returned:
        if fed.arity:
            if not isinstance(value, (cst.Tuple, cst.List)) or len(value.elements) != fed.arity:
                return []
            value = value.elements[fed.position].value
        stored = _replaced_fields(value, fed.param, scope, model, flow, 0)
        if stored is None:
            return []
        found.append(stored if isinstance(stored, _EveryField) else {**written, **stored})
    return found


# ``state["n"] += x`` stores ``state["n"] + x``
AUGMENTED_OPERATORS = {cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract,
                       cst.MultiplyAssign: cst.Multiply, cst.DivideAssign: cst.Divide}


def _item_writes(func: cst.FunctionDef, param: str) -> dict[str, cst.BaseExpression]:
    """The keys the step writes into its dict parameter in place (``state["loss_avg"] =
    state["loss_avg"] * 0.9 + loss``, ``state["iteration"] += 1``), each with the value of its
    last write, for a step that returns the parameter itself."""
    written: dict[str, cst.BaseExpression] = {}
    for statement in own_nodes_in_order(func.body):
        if not isinstance(statement, (cst.Assign, cst.AugAssign)):
            continue
        targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
        for target in targets:
            if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name)
                    and target.value.value == param and (key := _field_key(target)) is not None):
                continue
            if isinstance(statement, cst.Assign):
                written[key] = statement.value
            elif type(statement.operator) in AUGMENTED_OPERATORS:
                written[key] = cst.BinaryOperation(
                    left=target, operator=AUGMENTED_OPERATORS[type(statement.operator)](), right=statement.value)
    return written


def _replaced_fields(expr, param: str, scope: Scope, model: SemanticModel, flow, depth: int
                     ) -> Optional[dict[str, cst.BaseExpression]]:
    if isinstance(expr, cst.Name) and depth < 3:
        if expr.value == param and not any(b.scope is scope and b.kind != "param"
                                           for b in model.lookup(param, scope)):
            return {}
        reaching = [assigned(b) for b in flow.reaching(expr, scope)]
        if len(reaching) != 1 or reaching[0].value is None:
            return None
        return _replaced_fields(reaching[0].value, param, scope, model, flow, depth + 1)
    if isinstance(expr, cst.Dict):  # ``{**state, "t": t + dt}`` or every key written out
        kept = [e for e in expr.elements if isinstance(e, cst.StarredDictElement)]
        written = [e for e in expr.elements if isinstance(e, cst.DictElement)]
        keys = string_keys(cst.Dict(written))
        if keys is None or any(not (isinstance(e.value, cst.Name) and e.value.value == param) for e in kept):
            return None
        return dict(zip(keys, (e.value for e in written)))
    if not isinstance(expr, cst.Call):
        return None
    if model.qualified_name(expr.func, scope) in LEAF_CASTING_UPDATES and expr.args \
            and isinstance(expr.args[0].value, cst.Name) and expr.args[0].value.value == param:
        return _EveryField(expr)  # ``optax.apply_updates(params, updates)``: each leaf stored anew
    keywords = {a.keyword.value: a.value for a in expr.args if a.keyword is not None}
    if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in REPLACE_METHODS:
        return keywords
    if model.qualified_name(expr.func, scope) in DATACLASS_REPLACERS:
        return keywords
    return None


class _EveryField(dict):
    """What ``optax.apply_updates(params, updates)`` stores: every leaf of ``params``, as the
    call's result (strongly typed: jaxfacts.LEAF_CASTING_UPDATES)."""

    def __init__(self, call: cst.Call) -> None:
        super().__init__()
        self.call = call

    def get(self, key, default=None):
        return self.call


# ------------------------------------------------------------------ JAX's type promotion, in short
# A value's kind: its dtype category and whether it is weakly typed (a Python scalar, or made
# from Python scalars alone).  Measured on jax 0.10.2: a weak value combined with a strong one
# of the same or a higher category takes the strong one's type (``0.0 + reward`` is float32);
# with a strong one of a lower category it stays weak (``1 - done`` with a bool ``done`` is a
# weak int32, ``0 * mask`` too), so a counter kept as ``count * (1 - done)`` stays weak.
Kind = tuple[str, bool]
CATEGORY_ORDER = {"bool": 0, "int": 1, "float": 2, "array": 1}
UNKNOWN_ARRAY: Kind = ("array", False)  # a strongly typed array of a dtype not known
STRONG_KINDS = frozenset({("bool", False), ("int", False), ("float", False), UNKNOWN_ARRAY})
# jax.random draws of another category than float
RANDOM_KINDS = {"jax.random.randint": ("int", False), "jax.random.bernoulli": ("bool", False)}
COUNTING_METHODS = frozenset({"sum", "cumsum", "prod"})
AVERAGING_METHODS = frozenset({"mean", "std", "var"})
SELECTING_CALLS = frozenset({"jax.numpy.where", "jax.lax.select"})  # the condition does not count
SIZE_ATTRIBUTES = frozenset({"shape", "ndim", "size"})  # Python ints (or tuples of them) under jit


def _promoted(a: Optional[Kind], b: Optional[Kind], divide: bool = False) -> Optional[Kind]:
    if a == UNKNOWN_ARRAY or b == UNKNOWN_ARRAY:
        other = b if a == UNKNOWN_ARRAY else a
        if other is not None and other[0] == "float" and (other[1] or divide):
            return "float", False  # a Python float meets an array: float32 (bar float64)
        return UNKNOWN_ARRAY if other is not None and not other[1] else None
    if a is None or b is None:
        known = a or b  # a float32 array decides the result whatever the other is (bar float64)
        return known if known == ("float", False) else None
    category = max(a[0], b[0], key=CATEGORY_ORDER.__getitem__)
    if divide:
        category = "float"
    if a[1] == b[1]:
        return category, a[1]
    strong, weak = (a, b) if not a[1] else (b, a)
    return category, CATEGORY_ORDER[strong[0]] < CATEGORY_ORDER[weak[0]]


def _category(dtype: str) -> str:
    return "bool" if dtype == "bool" else "int" if "int" in dtype else "float"


def _passed_kinds(ctx: FileContext, func) -> dict[cst.Param, Kind]:
    """The step's parameters that every jitted call of it in the module passes a value of one
    kind (``env.step(state, action)`` with ``action = jax.random.randint(...)``: a strong
    int32), each with that kind."""
    model, flow, types = ctx.model, value_flow(ctx), argument_types(ctx)
    evaluate = _KindOf(model, flow, types, None, {})
    calls = [jc for jc in jitted_calls(ctx) if jc.func is func]
    found: dict[str, list[Optional[Kind]]] = {}
    for jc in calls:
        scope = model.call_site_of[jc.call].frame.scope
        for name, arg in jc.passed():
            if name is not None:
                found.setdefault(name, []).append(evaluate(arg.value, scope))
    params = {p.name.value: p for p in (*positional_params(func), *func.params.kwonly_params)} if calls else {}
    return {params[name]: kinds[0] for name, kinds in found.items()
            if name in params and len(kinds) == len(calls) and kinds[0] is not None and len(set(kinds)) == 1}


class _KindOf:
    """The kind of a value in the step (traced code): ``param``'s fields read as they start
    (``kinds``), the step's other parameters as every call passes them (``passed``); an array
    returned by a method of an object not seen (``env_state, timestep = self._env.step(...)``)
    is strongly typed, of a dtype not known (a Python float added to it gives float32, jax's
    default; a Python int may stay weak: ``1 - done`` of a bool); None: unknown."""

    def __init__(self, model: SemanticModel, flow, types, param: Optional[str], kinds: dict[str, Kind],
                 passed: Optional[dict[cst.Param, Kind]] = None) -> None:
        self.model, self.flow, self.types, self.param, self.kinds = model, flow, types, param, kinds
        self.passed = passed or {}

    def __call__(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Optional[Kind]:
        if depth > 8:
            return None

        def inner(e: cst.BaseExpression) -> Optional[Kind]:
            return self(e, scope, depth + 1)

        field = self._field_read(expr)
        if field is not None:
            return self.kinds.get(field)
        literal = self.types.kind(expr, scope) if isinstance(expr, (cst.Integer, cst.Float)) else None
        if literal is not None:
            return literal[0].split()[1], True
        if isinstance(expr, cst.Name) and expr.value in ("True", "False"):
            return "bool", False
        if isinstance(expr, cst.Comparison):
            return "bool", False
        if isinstance(expr, cst.BinaryOperation):
            return _promoted(inner(expr.left), inner(expr.right), isinstance(expr.operator, cst.Divide))
        if isinstance(expr, cst.UnaryOperation):
            return ("bool", False) if isinstance(expr.operator, cst.Not) else inner(expr.expression)
        if isinstance(expr, cst.Attribute) and expr.attr.value in SIZE_ATTRIBUTES:
            return "int", True  # ``x.shape[0]``: a Python int
        if isinstance(expr, (cst.Subscript, cst.Attribute)):
            return inner(expr.value)
        if isinstance(expr, cst.IfExp):
            body, orelse = inner(expr.body), inner(expr.orelse)
            return body if body == orelse else None
        if isinstance(expr, cst.Name):
            reaching = [b for b in self.flow.reaching(expr, scope) if b.scope is scope]
            found = {self._bound(b, inner) for b in reaching}
            strong = found & STRONG_KINDS  # a value stored strongly typed on some path (a loop's)
            return strong.pop() if len(strong) == 1 else found.pop() if len(found) == 1 else None
        if isinstance(expr, cst.Call):
            return self._call(expr, scope, inner)
        return None

    def _field_read(self, expr: cst.BaseExpression) -> Optional[str]:
        """``state.t`` / ``state["t"]`` of the step's state parameter; any ``x.t`` naming one
        of the class's fields when the parameter is not known (the class built in traced
        code reads the state it was handed)."""
        if isinstance(expr, cst.Attribute):
            owner, name = expr.value, expr.attr.value
        elif isinstance(expr, cst.Subscript) and (key := _field_key(expr)) is not None:
            owner, name = expr.value, key
        else:
            return None
        if not isinstance(owner, cst.Name) or name not in self.kinds:
            return None
        return name if self.param is None or owner.value == self.param else None

    def _bound(self, binding: Binding, inner) -> Optional[Kind]:
        if binding.kind == "param":
            return self.passed.get(binding.node)  # type: ignore[call-overload]
        found = assigned(binding)
        if found.value is not None:
            return inner(found.value)
        if found.augmented is not None:  # ``accepted += do_accept.sum()``: strong whatever it held
            value = inner(found.augmented.value)
            return value if value in STRONG_KINDS else None
        unpacked = unpacked_call(binding)
        if unpacked is not None and isinstance(unpacked[0].func, cst.Attribute) \
                and self.model.qualified_name(unpacked[0].func, binding.scope) is None:
            return UNKNOWN_ARRAY  # ``obs, env_state, reward, done = self._env.step(...)``
        return None

    def _call(self, call: cst.Call, scope: Scope, inner) -> Optional[Kind]:
        model = self.model
        dtype = self.types.explicit_dtype(call, scope)
        if dtype is not None:
            return _category(dtype or "float32"), False
        qualname = model.qualified_name(call.func, scope) or ""
        if qualname in LEAF_CASTING_UPDATES:
            return "float", False  # a Python float leaf comes back float32, strongly typed
        if qualname.startswith(STRONG_RESULT_MODULES):
            return RANDOM_KINDS.get(qualname, UNKNOWN_ARRAY)
        arguments = [a.value for a in call.args if a.keyword is None]
        if qualname in SELECTING_CALLS and len(arguments) == 3:
            return _promoted(inner(arguments[1]), inner(arguments[2]))
        if qualname.startswith(ARRAY_MODULES[0]) or qualname.startswith("jax.lax."):
            kinds = [inner(a) for a in arguments]
            result = kinds[0] if kinds else None
            for kind in kinds[1:]:
                result = _promoted(result, kind)
            return result
        if isinstance(call.func, cst.Attribute) and not qualname:
            method, receiver = call.func.attr.value, inner(call.func.value)
            if receiver is None:
                return None
            if method in DTYPE_KEEPING_METHODS:
                return receiver
            if method in COUNTING_METHODS:
                return ("int" if receiver[0] == "bool" else receiver[0]), receiver[1]
            if method in AVERAGING_METHODS:
                return "float", receiver[1]
        return None


def _field_key(sub: cst.Subscript) -> Optional[str]:
    """``state["t"]``: the string key read."""
    if len(sub.slice) == 1 and isinstance(sub.slice[0].slice, cst.Index) \
            and isinstance(sub.slice[0].slice.value, cst.SimpleString):
        return sub.slice[0].slice.value.evaluated_value
    return None


def dtype_category(ctx: FileContext, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Optional[str]:
    """The dtype category ("bool", "int", "float") a value certainly has, whatever its weak
    type: the kind model above, plus what it leaves open when an operand's dtype is not known
    (a true division gives a float, and so does anything combined with a float: jax's
    promotion, bar complex); names followed to their one binding, in enclosing scopes too
    (the branches of ``lax.cond`` close over the caller's values).  None: not known."""
    if depth > 6:
        return None
    model, flow = ctx.model, value_flow(ctx)
    kind = _KindOf(model, flow, argument_types(ctx), None, {})(expr, scope)
    if kind is not None and kind != UNKNOWN_ARRAY:
        return kind[0]
    if isinstance(expr, cst.BinaryOperation):
        if isinstance(expr.operator, cst.Divide):
            return "float"
        sides = {dtype_category(ctx, side, scope, depth + 1) for side in (expr.left, expr.right)}
        return "float" if "float" in sides else None
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return dtype_category(ctx, expr.expression, scope, depth + 1)
    if isinstance(expr, cst.Name):
        binding = model.single_binding(expr.value, scope)
        value = assigned(binding).value if binding is not None and binding.kind == "assign" else None
        return dtype_category(ctx, value, binding.scope, depth + 1) if value is not None else None
    return None
