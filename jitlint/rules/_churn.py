"""Shared analysis for JIT5xx: a jitted function called in a loop with an argument whose shape
(JIT501) or dtype / weak type (JIT502) depends on the iteration.

JAX compiles once per distinct (shape, dtype, weak type) of the traced arguments.  Flagged, for
a non-static argument of a call of a jitted callable inside a ``for``/``while`` loop or
comprehension (outside any jitted body):

* shape: a slice with one bound on the loop counter (``x[:i]``, ``x[i:]``, ``x[s:i]``); an
  array sized by it (``jnp.zeros((i,))``, ``jnp.arange(i)``, ``jnp.linspace(0, 1, i)``,
  ``jax.random.normal(key, (i,))``); a list that grows in the loop (``append`` / ``+=``), passed
  as is or through ``jnp.array`` / ``jnp.stack``; an array grown by ``jnp.concatenate([acc, x])``;
  a boolean-mask index ``x[x > t]`` of data that changes in the loop; sizes and slice bounds
  from a value carried around the loop (``size -= 1``, ``n - k``, ``size // 2``:
  values.IterationValues follows it back to where it starts, values.carried), or drawn at random
  in the loop (``n = rng.integers(10, 200)``, also NumPy's draws of that size, ``np.random.rand(n,
  3)``); an array sliced
  from itself on every iteration (``m = m[:-1]``, ``x = x[1:, 1:]``); a value stored in an
  attribute in the loop (``cfg.window = x[:i]``) followed to the call that reads it.
* dtype: the loop variable of a literal list mixing Python int / float / bool values or listing
  several dtypes (used as ``dtype=`` / ``.astype``); a name that starts as a Python int and is
  made a float in the loop (``lr = 1`` ... ``lr = lr / 2``); ``1 if ... else 0.5``.

Silent on purpose: fixed-size windows (``x[i:i + 4]``, ``x[i * k:(i + 1) * k]``,
``lax.dynamic_slice``), padding to a bucket, a list that is also popped (a sliding window),
values that change but keep their shape and type (Python ints 0..4 are all weak int32),
anything built through a call we do not know.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import (ARRAY_METHODS, LEAF_CASTING_UPDATES, PASS_THROUGH, RANGES_WITH_PROGRESS, SIZE_KEEPING_METHODS, TREE_MAPS, BATCH_KEEPING_CALLS, WEAK_SCALAR_ARRAYS, SHAPE_JOINING_CALLS, SHAPE_KEEPING_METHODS, TENSOR_CONVERSION_METHODS, NUMPY_VALUE_FUNCTIONS, DATA_SIZED_OUTPUTS,
                              AXES_KEEPING_CALLS, NUMPY_ARRAY_CONSTRUCTORS, ROW_INDEX_ARRAYS, SHAPE_KEEPING_CONVERSIONS, STRONG_ARRAY_CONSTRUCTORS)
from jitlint.rule import FileContext
from jitlint.project import module_name_for
from jitlint.batches import counted_batches, counted_slice, guard_acts
from jitlint.rules._loaders import known_length, outer_assignments, ragged_source
from jitlint.callgraph import REPEATED
from jitlint.rules._context import CallingContext, calling_context
from jitlint.rules._episodes import EPISODE_FIX, episode_length
from jitlint.rules._instances import pytree_instance
from jitlint.rules._jitted import JittedCall, called_positions, jitted_calls, jitted_functions, name_loads, positional_params
from jitlint.semantic import Binding, CallSite, Frame, Scope, SemanticModel, argument_value, passed_values
from jitlint.values import (builtin_call, GROW_METHODS, array_rank, python_number, method_of_self, IterationValues, substituted, ValueFlow, assigned, carried, conditional_within, counts, dict_item_value,
                            array_made_by, loop_elements,
                            statements_in,
                            host_random_size, returned_values, target_leaves, value_flow, attribute_writes_elsewhere)
from jitlint.walk import Walker, children, iter_nodes
from jitlint.walk import source_text as _src

Poly = dict[tuple[str, ...], int]
# how many names, returns and parameter-to-call hops _ArgTypes.kind follows (``r = r_given_k(K)``
# in ``G(K)`` called over ``k_vals = jnp.linspace(...)`` takes five)
KIND_DEPTH = 6
# How a size or bound swept over a literal list is described (``for n in [5, 8, 10]``); an
# outer loop's sweep around an inner loop of calls is a configuration, not churn
LISTED = "taken from a list of"

SIZED_SHAPE_ARG0 = frozenset({"zeros", "ones", "empty", "full", "eye", "identity"})
RANDOM_SHAPE_ARG1 = frozenset({"jax.random.normal", "jax.random.uniform", "jax.random.randint",
                               "jax.random.bernoulli", "jax.random.truncated_normal"})
TO_ARRAY = frozenset({"array", "asarray", "stack", "concatenate", "vstack", "hstack"})
CONCATENATORS = frozenset({"concatenate", "append", "vstack", "hstack", "column_stack",
                           "row_stack", "stack"})
ARRAY_MODULES = ("jax.numpy", "numpy")
# Array constructors of a value: jax's keep a Python scalar's weak type, NumPy's never do.
NUMPY_ARRAY_MAKERS = frozenset({"numpy.array", "numpy.asarray"})
ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power, cst.Modulo,
              cst.MatrixMultiply)
DATA_SIZED = frozenset({"nonzero", "flatnonzero", "argwhere", "unique", "where"})
SHRINK_METHODS = frozenset({"pop", "remove", "clear", "popleft"})
DTYPE_NAMES = frozenset({
    "float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
    "uint16", "uint32", "uint64", "bool_", "complex64", "complex128",
})

WINDOW_FIX = ("use a fixed-size window (x[i:i + k] or lax.dynamic_slice), pad to a few bucket "
              "sizes, or move the loop into lax.fori_loop / lax.scan")
SIZED_FIX = ("allocate one maximum size and mask the tail, pad to a few bucket sizes, or move "
             "the loop into lax.fori_loop / lax.scan")
GROW_FIX = ("preallocate a fixed-size array and fill it with .at[i].set(...), or pad to a few "
            "bucket sizes")
SHRINK_FIX = ("keep one shape: allocate the full size once and mask the entries that are dropped "
              "or not yet used, instead of slicing or padding the array itself, or move the loop "
              "into lax.fori_loop / lax.while_loop")
# methods of a NumPy Generator / RandomState that draw new values
RANDOM_DRAW_METHODS = frozenset({"random", "uniform", "normal", "integers", "choice", "rand", "randn",
                                 "randint", "binomial", "poisson", "permutation"})
SEGMENT_FIX = ("pad each segment to one maximum length and pass its true length (or a mask), or "
               "pad to a few bucket sizes")
MASK_FIX = ("keep the shape fixed: jnp.where(mask, x, 0), or pass the mask as a second argument")


@dataclass(eq=False)
class Churn:
    kind: str  # "shape" | "dtype" | "ragged"
    node: cst.CSTNode  # the argument (or where the value is made, when the fix goes there)
    call: JittedCall
    message: str
    related: tuple[tuple[cst.CSTNode, str], ...] = ()


def churns(ctx: FileContext) -> list[Churn]:
    return ctx.shared("argument-churn", _analyse)


def _analyse(ctx: FileContext) -> list[Churn]:
    model = ctx.model
    jitted = set(jitted_functions(ctx))
    # generators of other modules (_loaders.ragged_source), through the project index
    project = (ctx.index, *module_name_for(ctx.path)) if ctx.index is not None else None
    if project is not None and model.module_name:
        project = (ctx.index, model.module_name, project[2])
    found = []
    weak_started: dict[int, Churn] = {}  # a jitted call -> the finding of its first weakly typed start
    for jc in jitted_calls(ctx):
        site = model.call_site_of[jc.call]
        if any(frame.node in jitted for frame in site.frame):
            continue  # inside a jitted body: runs once, at trace time
        loops = site.frame.loops_in_scope()
        if not loops:
            found.extend(_forwarded_churns(ctx, jc, site, jitted, project))
            found.extend(_episode_per_call(ctx, jc, site))
            found.extend(_grown_attribute_per_call(ctx, jc, site))
            continue
        before = len(found)
        checker = _ArgChecker(model, value_flow(ctx), site.frame.scope, loops, argument_types(ctx), project,
                              calling_context(ctx))
        # a loop that benchmarks each size compiles each on purpose (a warm-up call keeps it untimed)
        replay = _replays_earlier_loop(model, site, loops[-1]) or calling_context(ctx).times_iterations(loops[0], benchmarks_only=True)
        for leaf in (leaf for arg in jc.dynamic_args() for leaf in _display_leaves(arg.value)):
            result = checker.shape(leaf) if not replay else None
            kind = "shape"
            if result is None:
                result, kind = checker.ragged(leaf), "ragged"
            if result is None and not jc.app.jit.qualname.startswith("equinox."):
                result, kind = checker.dtype(leaf), "dtype"
            if result is not None:
                # a weakly typed array made before the loop is reported where it is made: the
                # fix (a dtype) goes there; the loop's call is the evidence
                made = checker.weak_starts.get(id(leaf)) if kind == "dtype" else None
                if made is not None and id(jc.call) in weak_started:  # ``status = 0; idx = 0``: one finding
                    weak_started[id(jc.call)].message += f" (`{_src(leaf)}` starts weakly typed too: `{_src(made)}`)"
                    continue
                found.append(Churn(kind, made or leaf, jc, _message(jc, kind, leaf, *result),
                                   related=((leaf, "fed to the jitted function in the loop here"),) if made else ()))
                if made is not None:
                    weak_started[id(jc.call)] = found[-1]
                if kind == "ragged":
                    break  # the other arguments of the batch are short at the same call
        if len(found) == before:  # ``for layer in layers: x = layer_fn(w, x)`` in a helper's own loop
            found.extend(_forwarded_churns(ctx, jc, site, jitted, project))
    flagged = {id(churn.node) for churn in found}
    found.extend(c for c in _weak_type_alternations(ctx, jitted) if id(c.node) not in flagged)
    flagged = {id(churn.node) for churn in found}
    found.extend(c for c in _field_kind_alternations(ctx, jitted) if id(c.node) not in flagged)
    flagged = {id(churn.node) for churn in found}
    found.extend(c for c in _attribute_kind_changes(ctx, jitted) if id(c.node) not in flagged)
    return found


def _episode_per_call(ctx: FileContext, jc: JittedCall, site: CallSite) -> Iterator[Churn]:
    """``rewards = run_episode(...)`` then ``get_expected_return(rewards)`` in a function that
    runs again and again (a training step called once per episode): each call runs a new
    episode, whose length is the array's, so the jit compiles once per distinct length."""
    function = site.frame.enclosing_function()
    context = calling_context(ctx)
    if function is None or not context.site_repeats(site):
        return
    flow = value_flow(ctx)
    for leaf in (leaf for arg in jc.dynamic_args() for leaf in _display_leaves(arg.value)):
        episode = episode_length(ctx.model, flow, leaf, site.frame.scope)
        if episode is not None:
            evidence = context.repetition_evidence(function) or "it runs repeatedly"
            yield Churn("shape", leaf, jc, (
                f"`{jc.name}` is called with `{_src(leaf)}`, {episode.describe()}, in "
                f"`{function.name.value}`, which runs again and again ({evidence}): every new "
                f"episode length compiles `{jc.name}` again; {EPISODE_FIX}"))
            return


def _grown_when_full(binding: Binding, name: str, loop: cst.CSTNode) -> bool:
    """The concatenation sits under an ``if`` in the loop that tests the size of an array its
    body grows (``if next_idx >= len(cur_mask): xs = np.concatenate([xs, chunk]); cur_mask =
    ...``): buffers grown by a chunk when full, a few bucket sizes, not a new shape per
    iteration."""
    for frame in binding.frame or ():
        if frame.node is loop:
            return False
        if not isinstance(frame.node, cst.If):
            continue
        grown = {leaf.value for node in iter_nodes(frame.node.body) if isinstance(node, cst.Assign)
                 for target in node.targets for leaf in target_leaves(target.target) if isinstance(leaf, cst.Name)}
        sized = {n.args[0].value.value for n in iter_nodes(frame.node.test) if isinstance(n, cst.Call)
                 and isinstance(n.func, cst.Name) and n.func.value == "len" and n.args and isinstance(n.args[0].value, cst.Name)}
        sized |= {n.value.value for n in iter_nodes(frame.node.test) if isinstance(n, cst.Attribute)
                  and n.attr.value in ("shape", "size") and isinstance(n.value, cst.Name)}
        if sized & grown:  # the buffers grown together, one of them measured
            return True
    return False


def _concatenates_itself(model: SemanticModel, value: cst.BaseExpression, own: str, scope: Scope) -> bool:
    """``value``, assigned to ``own`` (a name or ``self.buf``), is ``own`` with more rows joined
    on: ``jnp.concatenate([own, x])``, ``jnp.vstack([own, x])``, ``np.append(own, x)``."""
    if not isinstance(value, cst.Call):
        return False
    qualname = model.qualified_name(value.func, scope) or ""
    module, _, function = qualname.rpartition(".")
    if module not in ARRAY_MODULES or function not in CONCATENATORS or not value.args:
        return False
    first = value.args[0].value
    # The whole accumulator goes in: concatenate([acc, x]) / append(acc, x); not a rolling
    # buffer such as concatenate([acc[1:], x]).
    items = [e.value for e in first.elements] if isinstance(first, (cst.List, cst.Tuple)) else [first]
    return any(_src(item, 200) == own for item in items if isinstance(item, (cst.Name, cst.Attribute)))


def _grown_attribute_per_call(ctx: FileContext, jc: JittedCall, site: CallSite) -> Iterator[Churn]:
    """``kernel(self.train_x, ...)`` in a method that runs again and again, where a method of
    the same class that runs again and again too joins rows onto the attribute
    (``self.train_x = jnp.vstack([self.train_x, new_x])``: a Gaussian process given one more
    point per Bayesian-optimisation step): every new length compiles the jit again."""
    function = site.frame.enclosing_function()
    context = calling_context(ctx)
    owner = ctx.model.functions[function].scope.node if function is not None else None
    if not isinstance(owner, cst.ClassDef) or not context.site_repeats(site):
        return
    for leaf in (leaf for arg in jc.dynamic_args() for leaf in _display_leaves(arg.value)):
        if not (isinstance(leaf, cst.Attribute) and isinstance(leaf.value, cst.Name) and leaf.value.value == "self"):
            continue
        own = _src(leaf, 200)
        for write, frame in attribute_writes_elsewhere(ctx.model, leaf.attr.value):
            grower = frame.enclosing_function()
            if not (isinstance(write, cst.AssignTarget) and _src(write.target, 200) == own and grower is not None
                    and ctx.model.functions[grower].scope.node is owner):
                continue
            statement = next((node for node in iter_nodes(grower.body) if isinstance(node, cst.Assign)
                              and any(target is write for target in node.targets)), None)
            if statement is None or not _concatenates_itself(ctx.model, statement.value, own, frame.scope) \
                    or not (grower is function or context.how(grower) == REPEATED):
                continue
            evidence = context.repetition_evidence(function) or "it runs repeatedly"
            yield Churn("shape", leaf, jc, (
                f"`{jc.name}` is called with `{own}`, which `{grower.name.value}` grows by concatenation "
                f"(`{_src(statement, 60)}`), in `{function.name.value}`, which runs again and again "
                f"({evidence}): every new length compiles `{jc.name}` again; {GROW_FIX}"),
                related=((statement, "rows joined on here"),))
            return


def _forwarded_churns(ctx: FileContext, jc: JittedCall, site: CallSite, jitted: set,
                      project) -> Iterator[Churn]:
    """A helper that hands a parameter to the jit (``def inference(frames, q): return
    model_apply(params, q[None])``), called in a loop with arrays whose shape changes: each new
    shape reaches the jit.  Reported at the loop's argument, where the shape is made."""
    function = site.frame.enclosing_function()
    if function is None or function in jitted:
        return
    flow = value_flow(ctx)
    positional = called_positions(ctx.model, function)
    reported: set[int] = set()  # loops already reported: two calls of the helper there hand it one batch
    # ``def mean_ms(f, x): f(x); for _ in range(reps): f(x)``: each call of the helper repeats
    # the jit, so a size swept over a listed configuration compiles once for those calls
    def repeats_within() -> bool:
        return any(other.frame.loops_in_scope() and other.frame.enclosing_function() is function
                   and _src(other.node.func) == _src(jc.call.func) for other in ctx.model.calls
                   if ctx.model.encloses(function.body, other.node))

    for leaf in (leaf for arg in jc.dynamic_args() for leaf in _display_leaves(arg.value)):
        callee = jc.call.func.value if isinstance(jc.call.func, cst.Name) else None
        param = forwarded_param(ctx.model, flow, leaf, site.frame.scope, function, callee=callee)
        if param is None:
            churn = _data_sized_of_param(ctx, jc, function, leaf, site.frame.scope, jitted)
            if churn is not None:
                yield churn
                return
            continue
        for caller in sorted(calling_context(ctx).call_sites(function),
                             key=lambda site: ctx.model.span(site.node) or (0, 0)):
            loops = caller.frame.loops_in_scope()
            passed = argument_value(caller.node, positional.index(param) if param in positional else None, param)
            if not loops or passed is None or any(frame.node in jitted for frame in caller.frame) \
                    or id(loops[-1]) in reported:
                continue
            checker = _ArgChecker(ctx.model, flow, caller.frame.scope, loops, argument_types(ctx), project,
                                  calling_context(ctx))
            for kind, check in (("shape", checker.shape), ("ragged", checker.ragged)):
                result = next((found for found in map(check, _display_leaves(passed)) if found is not None), None)
                if result is not None and not (LISTED in result[0] and repeats_within()):
                    desc, fix = result
                    handed = f"`{param}`" if _src(leaf) == param else f"`{param}` (as `{_src(leaf)}`)"
                    yield Churn(kind, passed, jc, (
                        f"`{function.name.value}` hands {handed} to `{jc.name}` and is called in a loop with "
                        f"`{_src(passed)}`, {desc}: every new shape compiles `{jc.name}` again; {fix}"))
                    reported.add(id(loops[-1]))
                    break


def _data_sized_of_param(ctx: FileContext, jc: JittedCall, function: cst.FunctionDef, leaf: cst.BaseExpression,
                         scope: Scope, jitted: set) -> Optional[Churn]:
    """``uniq = jnp.unique(v)`` then ``_entropy(v, uniq)`` in a helper whose parameter ``v`` a
    loop hands new values: the length is the data's (jaxfacts.DATA_SIZED_OUTPUTS, outside jit
    nothing bounds it), so the jit sees a new shape on most calls (fedjax's arithmetic coding,
    one compile per count of distinct values)."""
    model, flow = ctx.model, value_flow(ctx)
    binding = flow.single(leaf, scope) if isinstance(leaf, cst.Name) else None
    made = assigned(binding).value if binding is not None and binding.kind == "assign" else None
    if not isinstance(made, cst.Call):
        return None
    qualname = model.qualified_name(made.func, binding.scope) or ""
    module, _, name = qualname.rpartition(".")
    fact = DATA_SIZED_OUTPUTS.get(f"jax.numpy.{name}") if module in ARRAY_MODULES else None
    positional = [a.value for a in made.args if a.keyword is None and not a.star]
    if fact is None or any(a.keyword is not None and a.keyword.value == fact.size_keyword for a in made.args) \
            or not positional or fact.max_positional is not None and len(positional) > fact.max_positional:
        return None
    param = _param_behind(flow, positional[0], binding.scope, function, 0)
    if param is None:
        return None
    positions = called_positions(model, function)
    for caller in calling_context(ctx).call_sites(function):
        loops = caller.frame.loops_in_scope()
        passed = argument_value(caller.node, positions.index(param) if param in positions else None, param)
        if not loops or passed is None or any(frame.node in jitted for frame in caller.frame) or not any(
                any(b.frame is not None and b.frame.is_inside(loops[0]) or b.node is loops[0]
                    for b in flow.reaching(n, caller.frame.scope)) for n in name_loads(passed)):
            continue
        return Churn("shape", leaf, jc, (
            f"`{jc.name}` is called in `{function.name.value}` with `{_src(leaf)}` = `{_src(made, 40)}`, whose "
            f"length is the data's, and `{function.name.value}` is called in a loop with new values for "
            f"`{param}`: a new length on most calls compiles `{jc.name}` again; pass a fixed length "
            f"(jnp.unique(..., size=N, fill_value=...)) or a fixed-size mask instead"),
            related=((caller.node, f"`{function.name.value}` called here, in a loop"),))
    return None


def _param_behind(flow: ValueFlow, expr: cst.BaseExpression, scope: Scope, function: cst.FunctionDef,
                  depth: int) -> Optional[str]:
    """The parameter of ``function`` whose value ``expr`` is computed from, through names bound
    once (``v = jnp.nan_to_num(v); v = v.flatten()``); None when not one such."""
    if depth > 4:
        return None
    for name in name_loads(expr):
        binding = flow.single(name, scope)
        if binding is None:
            continue
        if binding.kind == "param" and binding.scope.node is function:
            return binding.name
        value = assigned(binding).value if binding.kind == "assign" else None
        found = _param_behind(flow, value, binding.scope, function, depth + 1) if value is not None else None
        if found is not None:
            return found
    return None


def forwarded_param(model: SemanticModel, flow: ValueFlow, expr: cst.BaseExpression, scope: Scope,
                     function: cst.FunctionDef, depth: int = 0, callee: Optional[str] = None) -> Optional[str]:
    """The parameter of ``function`` that ``expr`` is, up to shape-keeping steps (``q[None]``,
    ``q.astype(...)``, ``jnp.asarray(q)``, a name bound to one of those)."""
    if depth > 3:
        return None
    if isinstance(expr, cst.Subscript) and all(_adds_axis_only(element.slice) for element in expr.slice):
        return forwarded_param(model, flow, expr.value, scope, function, depth + 1, callee)  # ``q[None]``
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in SHAPE_KEEPING_METHODS:
        return forwarded_param(model, flow, expr.func.value, scope, function, depth + 1, callee)
    if isinstance(expr, cst.Call) and expr.args and expr.args[0].keyword is None and not expr.args[0].star \
            and model.qualified_name(expr.func, scope) in SHAPE_KEEPING_CONVERSIONS:
        return forwarded_param(model, flow, expr.args[0].value, scope, function, depth + 1, callee)
    if not isinstance(expr, cst.Name):
        return None
    binding = flow.single(expr, scope)
    if binding is None and callee is not None:
        # ``for _ in range(n_blocks): x = layer_fn(w, x)``: the parameter reaches the first call,
        # and the jit's own output (of the same shape) the others
        reaching = flow.reaching(expr, scope)
        params = [b for b in reaching if b.kind == "param" and b.scope is model.scope_of[function]]
        outputs = [b for b in reaching if b.kind == "assign" and isinstance(b.value, cst.Call)
                   and isinstance(b.value.func, cst.Name) and b.value.func.value == callee]
        binding = params[0] if len(params) == 1 and len(params) + len(outputs) == len(reaching) else None
    if binding is None:
        return None
    if binding.kind == "param" and binding.scope is model.scope_of[function]:
        return binding.name
    value = assigned(binding).value if binding.kind == "assign" else None
    return forwarded_param(model, flow, value, binding.scope, function, depth + 1, callee) if value is not None else None


def _adds_axes(subscript: cst.Subscript) -> bool:
    """``x[None]``, ``x[None, :]``, ``x[..., np.newaxis]``: new axes around all of ``x``, whose
    lengths it keeps."""
    new_axis = False
    for element in subscript.slice:
        index = element.slice
        if isinstance(index, cst.Slice) and index.lower is None and index.upper is None and index.step is None:
            continue
        if isinstance(index, cst.Index) and isinstance(index.value, cst.Ellipsis):
            continue
        if isinstance(index, cst.Index) and (isinstance(index.value, cst.Name) and index.value.value == "None"
                                             or isinstance(index.value, cst.Attribute)
                                             and index.value.attr.value == "newaxis"):
            new_axis = True
            continue
        return False
    return new_axis


def _joins_other_axes(call: cst.Call, qualname: Optional[str]) -> bool:
    """A join (jaxfacts.SHAPE_JOINING_CALLS) whose parts keep their other axes in the result:
    a new axis, or a literal axis >= 1 (along axis 0 lengths add up: a pad may fix the total)."""
    if qualname not in SHAPE_JOINING_CALLS:
        return False
    axis_param = SHAPE_JOINING_CALLS[qualname]
    if axis_param is None:
        return True
    axis = argument_value(call, *axis_param)
    return isinstance(axis, cst.Integer) and axis.evaluated_value >= 1


def _adds_axis_only(index: cst.BaseSlice) -> bool:
    """``None``, ``...`` or a whole-axis ``:``: an index that keeps every element."""
    if isinstance(index, cst.Slice):
        return index.lower is None and index.upper is None and index.step is None
    value = index.value if isinstance(index, cst.Index) else None
    return isinstance(value, cst.Ellipsis) or isinstance(value, cst.Name) and value.value == "None"


def _display_leaves(expr: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The values a tuple, list or dict display passes as pytree leaves (``(x[i:i + bs],
    y[i:i + bs])``: each leaf's shape is part of the signature), or the argument itself."""
    if isinstance(expr, (cst.Tuple, cst.List)):
        for element in expr.elements:
            if not isinstance(element, cst.StarredElement):
                yield from _display_leaves(element.value)
    elif isinstance(expr, cst.Dict):
        for element in expr.elements:
            if isinstance(element, cst.DictElement):
                yield from _display_leaves(element.value)
    else:
        yield expr


# ---------------------------------------------------------------------------- weak types
def _weak_type_alternations(ctx: FileContext, jitted: set) -> Iterator[Churn]:
    """Two calls of one jitted callable in the same body (a def's or the module's, before or in
    a loop), one after the other, that pass the same argument a Python scalar or a weakly typed
    array of one (weak int32 / weak float32) and then a Python scalar of the other kind or a
    strongly typed array (``np.float32(0.)``, a ``dtype=``, ``.astype``, an element of an
    array, or the result of a jitted function that returns one): two signatures, two compiles
    (jax issue 4274, LINX issue 13).  A loop's own alternation is _ArgChecker.dtype's."""
    model, flow = ctx.model, value_flow(ctx)
    calls = [jc for jc in jitted_calls(ctx)  # filter_pmap maps its own way (in_axes by leaf kind)
             if not jc.app.jit.qualname.startswith("equinox.") or jc.app.jit.qualname == "equinox.filter_jit"]
    types = _ArgTypes(model, flow, {jc.call: jc for jc in calls}, calling_context(ctx).unpacked_values)
    by_callee: dict[tuple[int, int], list[JittedCall]] = {}
    for jc in calls:
        site = model.call_site_of[jc.call]
        if any(frame.node in jitted for frame in site.frame):
            continue
        by_callee.setdefault((id(jc.app), id(site.frame.scope)), []).append(jc)
    for group in by_callee.values():
        group.sort(key=lambda jc: model.order(jc.call))
        first_seen: dict[object, tuple[str, str, cst.BaseExpression, Frame, JittedCall]] = {}
        reported: set[object] = set()
        for jc in group:
            frame = model.call_site_of[jc.call].frame
            scope = frame.scope
            positional = [a for a in jc.call.args if a.keyword is None]
            for arg in jc.dynamic_args():
                key = arg.keyword.value if arg.keyword is not None else positional.index(arg)
                kind = types.kind(arg.value, scope)
                if kind is None or key in reported:
                    continue
                if jc.app.jit.qualname.startswith("equinox.") and kind[0].startswith("python") \
                        and not isinstance(arg.value, cst.Call):
                    continue  # a Python scalar is static under filter_jit (JIT403's); an array is traced
                if key not in first_seen:
                    first_seen[key] = (*kind, arg.value, frame, jc)
                    continue
                before, before_text, before_arg, before_frame, before_call = first_seen[key]
                if kind[0] == before or "python" not in (kind[0][:6], before[:6]):
                    continue
                if _static_literals_differ(before_call, jc):
                    continue  # ``f(2, 5)`` then ``f(1., 10)`` with the length static: two programs anyway
                array, array_frame = (arg.value, frame) if before.startswith("python") else (before_arg, before_frame)
                if (array_rank(model, array, array_frame.scope, array_frame) or 0) > 0:
                    continue  # ``f(1)`` then ``f(jnp.ones(2))``: a scalar and a vector, two programs whatever the dtype
                reported.add(key)
                scalar = before_arg if before.startswith("python") else arg.value
                yield Churn("dtype", arg.value, jc, (
                    f"`{jc.name}` is called with `{_src(arg.value)}`, {kind[1]}, after a call "
                    f"with `{_src(before_arg)}`, {before_text}, at the same argument: each "
                    f"(dtype, weak type) is its own signature, so this call compiles "
                    f"`{jc.name}` a second time; {_weak_fix(before, kind[0], scalar)}"))


def _static_literals_differ(first: JittedCall, second: JittedCall) -> bool:
    """The two calls pass different literals (numbers, strings) to one static argument."""
    before, after = _static_literals(first), _static_literals(second)
    return any(key in after and after[key] != code for key, code in before.items())


def _static_literals(jc: JittedCall) -> dict[object, str]:
    """The code of each literal a call passes to a static argument, by position or keyword."""
    literals = (cst.Integer, cst.Float, cst.SimpleString)
    positional = [a for a in jc.call.args if a.keyword is None and not a.star]
    found: dict[object, str] = {position: _src(arg.value) for position, (static, arg)
                                in enumerate(zip(jc.static_args or [], positional))
                                if static and isinstance(arg.value, literals)}
    found.update({arg.keyword.value: _src(arg.value) for arg in jc.call.args
                  if arg.keyword is not None and arg.keyword.value in (jc.static_keywords or ())
                  and isinstance(arg.value, literals)})
    return found


def _attribute_kind_changes(ctx: FileContext, jitted: set) -> Iterator[Churn]:
    """A jitted call that passes ``self.epsilon`` (traced) where the class's methods write it
    a Python int (``self.epsilon = self.init_epsilon`` of a constructor parameter every
    construction fills with ``1``) and elsewhere make it a float (``self.epsilon *=
    self.decay`` of a float ``decay``): a weak int32 on the calls before the decay, a weak
    float32 after it, two signatures (junoJaxRL's DQN agent: 2 compiles of ``select_action``).
    An equinox filter_jit holds Python numbers static (JIT403's)."""
    model, flow, context = ctx.model, value_flow(ctx), calling_context(ctx)
    for jc in jitted_calls(ctx):
        site = model.call_site_of[jc.call]
        if jc.app.jit.qualname.startswith("equinox.") or any(frame.node in jitted for frame in site.frame):
            continue
        for arg in jc.dynamic_args():
            attr = arg.value
            if not (isinstance(attr, cst.Attribute) and isinstance(attr.value, cst.Name) and attr.value.value == "self"):
                continue
            method = method_of_self(model, attr.value, site.frame.scope)
            owner = model.functions[method].scope.node if method is not None and method in model.functions else None
            if not isinstance(owner, cst.ClassDef):
                continue
            starts, floats = [], []

            def itself(expr: cst.BaseExpression, name: str = attr.attr.value) -> bool:
                return isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) \
                    and expr.value.value == "self" and expr.attr.value == name
            for write, value, scope in _self_attribute_writes(model, owner, attr.attr.value):
                kind = "float" if isinstance(write, cst.AugAssign) and isinstance(write.operator, cst.DivideAssign) \
                    else python_number(model, flow, value, scope, itself, context.passed_to)
                if isinstance(write, cst.Assign) and kind == "int":
                    starts.append(write)
                elif kind == "float":
                    floats.append(write)
            if starts and floats:
                start, change = starts[0], floats[0]
                yield Churn("dtype", attr, jc, (
                    f"`{jc.name}` is called with `{_src(attr)}`, which `{_src(start, 50)}` starts as a "
                    f"Python int (weak int32) and `{_src(change, 50)}` makes a float (weak float32): "
                    f"each is its own signature, so the calls after the change compile `{jc.name}` "
                    f"a second time; start it as a float (`{_src(start.targets[0].target)} = "
                    f"float({_src(start.value, 40)})`)"))


def _self_attribute_writes(model: SemanticModel, cls: cst.ClassDef, name: str
                           ) -> Iterator[tuple[cst.CSTNode, cst.BaseExpression, Scope]]:
    """(the statement, the value written, its scope) for each ``self.name = value`` and
    ``self.name op= value`` in the methods of ``cls``."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for method in (s for s in body if isinstance(s, cst.FunctionDef)):
        scope = model.scope_of.get(method)
        if scope is None:
            continue
        for node in iter_nodes(method.body):
            if isinstance(node, cst.Assign) and len(node.targets) == 1:
                target = node.targets[0].target
            elif isinstance(node, cst.AugAssign):
                target = node.target
            else:
                continue
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                    and target.value.value == "self" and target.attr.value == name:
                yield node, node.value, scope


@dataclass(eq=False)
class _Built:
    """A pytree instance one jitted call receives at one argument, and what made it."""

    cls: cst.CSTNode  # the class (or the dict display)
    kinds: dict[str, tuple[tuple[str, str], cst.BaseExpression, Scope]]  # field -> (kind, value, scope)
    made: cst.CSTNode  # the construction (``Prices()``, ``create_ifp(a_r=a_r)``)
    order: int  # where the module-level call that leads to it runs


def _field_kind_alternations(ctx: FileContext, jitted: set) -> Iterator[Churn]:
    """Calls of one jitted function, anywhere in the module, whose same argument is a pytree
    (a NamedTuple or pytree dataclass of the module, or what a def of the module returns that
    builds one) built at two places with one leaf field a Python scalar at one and a strongly
    typed array, or a Python scalar of the other kind, at the other.  The argument is followed
    through the undecorated defs that pass their parameter on (``howard(household, prices)``
    calling ``get_greedy(v, household, prices)``).  Each (dtype, weak type) of a leaf is its own
    signature, so the jitted function compiles once per kind (QuantEcon lectures: ``Prices()``
    of float defaults, then ``Prices(r=r, w=w)`` of arrays; ``create_model(c=c)`` over
    ``c_vals = 1, 2, 3`` after the default ``c=5.0``)."""
    model = ctx.model
    types = argument_types(ctx, strong_at_some_call=True)
    context = calling_context(ctx)
    built: dict[tuple[int, object], list[tuple[_Built, JittedCall]]] = {}
    for jc in jitted_calls(ctx):
        site = model.call_site_of[jc.call]
        if any(frame.node in jitted for frame in site.frame) or jc.app.jit.qualname.startswith("equinox."):
            continue  # traced (no compile of its own), or Python scalars are static there (JIT403)
        positional = [a for a in jc.call.args if a.keyword is None]
        for arg in jc.dynamic_args():
            key = arg.keyword.value if arg.keyword is not None else positional.index(arg)
            for value, scope, order in _passed_values(ctx, context, jitted, arg.value, site, 0):
                instance = _built(ctx, types, value, scope, order)
                if instance is not None:
                    built.setdefault((id(jc.app), key), []).append((instance, jc))
    reported: set[int] = set()  # constructions already reported (for another jitted function)
    for group in built.values():
        group.sort(key=lambda item: (item[0].order, model.order(item[0].made)))
        first = group[0][0]
        difference = next(((instance, jc, field, found) for instance, jc in group[1:]
                           if instance.cls is first.cls and id(instance.made) not in reported
                           for field, found in instance.kinds.items()
                           if field in first.kinds and _other_signature(found[0][0], first.kinds[field][0][0])), None)
        if difference is None:
            continue  # one finding per argument: the first build of another kind (its fix covers the rest)
        instance, jc, field, (kind, value, scope) = difference
        before = first.kinds[field]
        reported.add(id(instance.made))
        anchor = _listed_origin(ctx, value, scope) or instance.made
        related = ((instance.made, f"built here with `{field}` {kind[1]}"),) if anchor is not instance.made else ()
        yield Churn("dtype", anchor, jc, (
            f"`{jc.name}` receives `{_src(instance.made, 40)}`, whose field `{field}` is "
            f"`{_src(value, 30)}`, {kind[1]}, after `{_src(first.made, 40)}` gave it "
            f"`{_src(before[1], 30)}`, {before[0][1]}: each (dtype, weak type) of a leaf is its own "
            f"signature, so `{jc.name}` compiles again; "
            f"{_field_fix(field, kind[0], before[0][0], listed=anchor is not instance.made)}"),
            related=related + ((first.made, "the first value, of the other kind"),))


def _other_signature(kind: str, before: str) -> bool:
    """Two argument kinds that trace differently: a Python int and a Python float (weak int32,
    weak float32), or a Python scalar and a strongly typed array."""
    return kind != before and "python" in (kind[:6], before[:6])


def _iterated(binding: Binding, model: SemanticModel) -> Optional[cst.BaseExpression]:
    """What the loop that binds ``binding`` iterates, one element per value of the name:
    ``for c in c_vals`` and ``for i, c in enumerate(c_vals)`` give ``c_vals``."""
    node = binding.node
    if binding.kind != "loop-target" or not isinstance(node, (cst.For, cst.CompFor)):
        return None
    if isinstance(node.target, cst.Name):
        iterable = node.iter
        if isinstance(iterable, cst.Call) and len(iterable.args) == 1 \
                and model.qualified_name(iterable.func, binding.scope) in PASS_THROUGH:
            return iterable.args[0].value  # ``for x in tqdm(xs)``
        return iterable
    iterable, target = node.iter, node.target
    if isinstance(target, cst.Tuple) and len(target.elements) == 2 and isinstance(target.elements[1].value, cst.Name) \
            and target.elements[1].value.value == binding.name and isinstance(iterable, cst.Call) \
            and len(iterable.args) == 1 and isinstance(iterable.func, cst.Name) and iterable.func.value == "enumerate" \
            and not model.lookup("enumerate", binding.scope):
        return iterable.args[0].value
    return None


def _field_fix(field: str, kind: str, before: str, listed: bool) -> str:
    dtype = "float32" if "float" in kind + before or "strong" in kind + before and "int" not in kind + before \
        else "int32"
    if listed and kind.startswith("python") and before.startswith("python"):
        return "write the listed values as the default is written (1.0, not 1)"
    return f"give the field one dtype wherever it is built ({field}=jnp.asarray(..., jnp.{dtype}))"


def _passed_values(ctx: FileContext, context: CallingContext, jitted: set, expr: cst.BaseExpression, site: CallSite, depth: int
                   ) -> Iterator[tuple[cst.BaseExpression, Scope, int]]:
    """What ``expr`` at ``site`` holds: the value a name is bound to, and for a parameter of an
    undecorated def of the module, what each call of that def passes (with the order of the
    outermost call)."""
    scope = site.frame.scope
    if not isinstance(expr, cst.Name) or depth > 3:
        yield expr, scope, _run_order(ctx, context, site, 0)
        return
    reaching = value_flow(ctx).reaching(expr, scope)
    if len(reaching) != 1:
        return
    binding = reaching[0]
    node = binding.node
    if binding.kind == "assign" and isinstance(node, cst.Assign) and len(node.targets) == 1 \
            and isinstance(node.targets[0].target, cst.Name) and binding.value is not None:
        yield binding.value, binding.scope, _run_order(ctx, context, site, 0)
    elif binding.kind == "param" and isinstance(node, cst.Param) and isinstance(binding.scope.node, cst.FunctionDef) \
            and binding.scope.node not in jitted and ctx.model.functions[binding.scope.node].scope.kind != "class":
        func = binding.scope.node
        positional = [p.name.value for p in positional_params(func)]
        position = positional.index(node.name.value) if node.name.value in positional else None
        for caller in context.call_sites(func):
            if any(frame.node in jitted for frame in caller.frame) or any(a.star for a in caller.node.args):
                continue
            value = argument_value(caller.node, position, node.name.value)
            if value is not None:
                yield from _passed_values(ctx, context, jitted, value, caller, depth + 1)


def _run_order(ctx: FileContext, context: CallingContext, site: CallSite, depth: int) -> int:
    """Where the module-level code that first runs ``site`` is (a call in a def runs when the
    first call of that def does), to tell which of two calls of a jitted function comes first."""
    func = next((frame.node for frame in site.frame if isinstance(frame.node, cst.FunctionDef)), None)
    if func is None or depth > 3 or ctx.model.functions[func].scope.kind == "class":
        return ctx.model.order(site.node)
    callers = context.call_sites(func)
    return min((_run_order(ctx, context, caller, depth + 1) for caller in callers), default=ctx.model.order(site.node))


def _built(ctx: FileContext, types: "_ArgTypes", value: cst.BaseExpression, scope: Scope, order: int
           ) -> Optional[_Built]:
    """The pytree ``value`` builds, with the kind of each leaf field whose kind is known; the
    parameters of a def that builds it (``create_ifp(a_r=0.16)``) take what the call passes,
    or their defaults."""
    made = pytree_instance(ctx, value, scope, 0)
    if made is None or isinstance(made[0], cst.Dict):
        return None
    cls, fields, _ = made
    factory = _called_def(ctx.model, value, scope)
    kinds = {}
    for field, (expr, field_scope) in fields.items():
        expr, field_scope = _at_call(ctx, factory, value, scope, expr, field_scope)
        kind = types.kind(expr, field_scope) if expr is not None else None
        if kind is not None:
            kinds[field] = (kind, expr, field_scope)
    return _Built(cls, kinds, value, order) if kinds else None


def _called_def(model: SemanticModel, value: cst.BaseExpression, scope: Scope) -> Optional[cst.FunctionDef]:
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Name):
        return None
    binding = model.single_binding(value.func.value, scope)
    return binding.node if binding is not None and binding.kind == "def" \
        and isinstance(binding.node, cst.FunctionDef) else None


def _at_call(ctx: FileContext, factory: Optional[cst.FunctionDef], call: cst.BaseExpression, scope: Scope,
             expr: cst.BaseExpression, expr_scope: Scope) -> tuple[Optional[cst.BaseExpression], Scope]:
    """A field value that is a parameter of the def building the instance, as this call fills
    it: the argument, or the parameter's default."""
    if factory is None or not isinstance(expr, cst.Name) or not isinstance(call, cst.Call):
        return expr, expr_scope
    reaching = value_flow(ctx).reaching(expr, expr_scope)
    if len(reaching) != 1 or reaching[0].kind != "param" or reaching[0].scope.node is not factory:
        return expr, expr_scope
    param = reaching[0].node
    positional = [p.name.value for p in positional_params(factory)]
    position = positional.index(expr.value) if expr.value in positional else None
    if any(a.star for a in call.args):
        return None, scope
    passed = argument_value(call, position, expr.value)
    if passed is not None:
        return passed, scope
    default = param.default if isinstance(param, cst.Param) else None
    return default, ctx.model.functions[factory].scope if default is not None else scope


def _listed_origin(ctx: FileContext, value: cst.BaseExpression, scope: Scope) -> Optional[cst.CSTNode]:
    """Where the values a loop feeds into a field are written (``c_vals = 1, 2, 3`` of ``for c
    in c_vals``): the fix (values of the other kind) goes there.  None: not a loop target."""
    if not isinstance(value, cst.Name):
        return None
    binding = value_flow(ctx).single(value, scope)
    iterable = _iterated(binding, ctx.model) if binding is not None else None
    if iterable is None:
        return None
    if isinstance(iterable, cst.Name):
        source = value_flow(ctx).single(iterable, binding.scope)
        if source is not None and source.kind == "assign" and isinstance(source.node, cst.Assign):
            return source.node
    return binding.node


def _weak_fix(before: str, after: str, scalar: cst.BaseExpression) -> str:
    if before.startswith("python") and after.startswith("python"):
        return "pass one Python type at both calls (write 1.0, not 1)"
    dtype = "int32" if "int" in (before + after) else "float32"
    return (f"give `{_src(scalar)}` an explicit dtype where it is made "
            f"(jnp.asarray({_src(scalar, 20)}, jnp.{dtype})) so every call sees the same strongly typed array")


def argument_types(ctx: FileContext, strong_at_some_call: bool = False) -> "_ArgTypes":
    """The module's argument-kind reader (a Python int / float, weakly typed, or a strongly
    typed array), shared by the rules that compare the types a jitted function receives.
    ``strong_at_some_call``: a parameter that some call fills with a strongly typed array is
    strong even where other calls pass Python scalars; for comparing one leaf's kinds across
    every construction, where that call's construction is already the one of the other kind."""
    return ctx.shared(f"argument-types-{strong_at_some_call}", lambda c: _ArgTypes(
        c.model, value_flow(c), {jc.call: jc for jc in jitted_calls(c)}, calling_context(c).unpacked_values,
        strong_at_some_call))


class _ArgTypes:
    """Which of three kinds an argument certainly is: a Python int, a Python float (both weakly
    typed), or an array with a strong dtype.  None: unknown (most values)."""

    def __init__(self, model: SemanticModel, flow: ValueFlow, jitted_calls_by_node: dict,
                 unpacked_values: Callable[[Binding], list[tuple[cst.BaseExpression, Scope]]],
                 strong_at_some_call: bool = False) -> None:
        self.model = model
        self.strong_at_some_call = strong_at_some_call
        self.flow = flow
        self.calls = jitted_calls_by_node
        self.unpacked_values = unpacked_values  # ``ball, paddle = init_state(key)``: what the def returns there
        self._scopes: Optional[dict[int, Scope]] = None  # call node id -> the scope it runs in

    def kind(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Optional[tuple[str, str]]:
        """(kind, description): kind "python int" / "python float" / "strong"."""
        literal = _literal_kind(expr, self.model, scope)
        if literal in ("int", "float") and not isinstance(expr, cst.Call):
            return f"python {literal}", f"a Python {literal} (weakly typed)"
        item = dict_item_value(self.flow, expr, scope) if depth < 3 else None
        if item is not None:  # ``cfg["s"]`` of ``cfg = {"s": np.float32(2.0)}``
            return self.kind(item[0], item[1], depth + 1)
        if isinstance(expr, cst.Name) and depth < KIND_DEPTH:
            bindings = self.flow.reaching(expr, scope)
            kinds = {self._bound(b, depth) for b in bindings}
            if len(kinds) == 1 and None not in kinds:
                return kinds.pop()
            return None
        if isinstance(expr, cst.Subscript):  # ``k_vals[0]``: an element of a strong array is strong (structural)
            whole = self.kind(expr.value, scope, depth)
            return whole if whole is not None and whole[0] == "strong" else None
        if isinstance(expr, cst.BinaryOperation):  # ``mu + sigma * random.normal(...)`` (structural: no depth)
            sides = [self.kind(side, scope, depth) for side in (expr.left, expr.right)]
            strong = next((side for side in sides if side is not None and side[0] == "strong"), None)
            if strong is not None:
                return strong
        if isinstance(expr, cst.Call):
            weak = self.weak_array(expr, scope)
            if weak is not None:
                return f"python {weak}", f"a weakly typed array, like a Python {weak} (no dtype given)"
            qualname = self.model.qualified_name(expr.func, scope) or ""
            if qualname in STRONG_ARRAY_CONSTRUCTORS:
                return "strong", f"a strongly typed array (`{_src(expr.func)}` gives a dtype of its own)"
            if self.explicitly_typed(expr, scope):
                return "strong", "an array with an explicit dtype (strongly typed)"
            if qualname.startswith("jax.numpy."):  # ``jnp.exp(z)`` of a strong ``z`` (structural: no depth)
                for arg in expr.args:
                    inner = self.kind(arg.value, scope, depth) if arg.keyword is None and not arg.star else None
                    if inner is not None and inner[0] == "strong":
                        return inner
            if qualname in NUMPY_ARRAY_MAKERS or qualname in NUMPY_ARRAY_CONSTRUCTORS \
                    and not qualname.startswith("numpy.random."):  # a draw without a size is a Python float
                return "strong", "a NumPy array (NumPy dtypes are never weak)"
            if qualname in NUMPY_VALUE_FUNCTIONS:
                return "strong", f"a NumPy value (`{_src(expr.func)}` returns one, and NumPy dtypes are never weak)"
            jc = self.calls.get(expr)
            if jc is not None and jc.func is not None and self.returns_strong(jc.func, depth + 1):
                return "strong", f"the result of jitted `{jc.name}` (a strongly typed array)"
            returned = returned_values(self.model, self.flow, expr, scope)
            if returned and self.returns_strong(returned[0].function, depth + 1):
                return "strong", f"the result of `{_src(expr.func)}` (a strongly typed array)"
        return None

    def weak_array(self, call: cst.Call, scope: Scope) -> Optional[str]:
        """``jnp.array(1)`` / ``jnp.asarray(0.5)``: a jax array of a Python scalar without a dtype
        is weakly typed, the same signature as the scalar itself (measured: one compile for
        ``jnp.asarray(2)`` then ``3``)."""
        qualname = self.model.qualified_name(call.func, scope) or ""
        position = WEAK_SCALAR_ARRAYS.get(qualname)
        if position is None or len(call.args) != position + 1 or any(a.keyword is not None or a.star for a in call.args):
            return None  # a dtype given (or more than the scalar): strongly typed
        value = call.args[position].value
        literal = self._python_scalar(value, scope)
        return literal if literal in ("int", "float") and not isinstance(value, cst.Call) else None

    def _python_scalar(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Optional[str]:
        """"int" / "float" for a Python number literal, or a name every definition of which
        gives one: an assignment, or a parameter that every call by name in the module fills
        with one (its default where a call leaves it out)."""
        literal = _literal_kind(expr, self.model, scope)
        if literal is not None or not isinstance(expr, cst.Name) or depth > 2:
            return literal
        kinds = set()
        for binding in self.flow.reaching(expr, scope):
            if binding.kind == "assign" and binding.value is not None and isinstance(binding.node, cst.Assign) \
                    and len(binding.node.targets) == 1 and isinstance(binding.node.targets[0].target, cst.Name):
                kinds.add(self._python_scalar(binding.value, binding.scope, depth + 1))
            elif binding.kind == "param" and isinstance(binding.node, cst.Param) \
                    and isinstance(binding.scope.node, cst.FunctionDef):
                kinds |= self._passed_scalars(binding.scope.node, binding.node, depth)
            else:
                return None
        return kinds.pop() if len(kinds) == 1 else None

    def _passed_scalars(self, func: cst.FunctionDef, param: cst.Param, depth: int) -> set[Optional[str]]:
        positional = [p.name.value for p in positional_params(func)]
        name = param.name.value
        position = positional.index(name) if name in positional else None
        sites = self._calls_by_name(func)
        if not sites:
            return {None}
        kinds: set[Optional[str]] = set()
        for site in sites:
            if any(arg.star for arg in site.node.args):
                return {None}
            value = argument_value(site.node, position, name)
            if value is None:
                kinds.add(_literal_kind(param.default, self.model, site.frame.scope) if param.default is not None else None)
            else:
                kinds.add(self._python_scalar(value, site.frame.scope, depth + 1))
        return kinds

    def _bound(self, binding: Binding, depth: int) -> Optional[tuple[str, str]]:
        node = binding.node
        if binding.kind == "loop-target":
            return self._element(binding, depth)
        if binding.kind == "param" and isinstance(node, cst.Param) and isinstance(binding.scope.node, cst.FunctionDef):
            return self._passed_kind(binding.scope.node, node, depth)
        if binding.kind != "assign" or not isinstance(node, cst.Assign) or len(node.targets) != 1:
            return None
        if not isinstance(node.targets[0].target, cst.Name):
            mapped = self._tree_mapped(binding, depth)
            if mapped is not None:
                return mapped
            kinds = {self.kind(value, scope, depth + 1) for value, scope in self.unpacked_values(binding)}
            return kinds.pop() if len(kinds) == 1 else None
        return self.kind(binding.value, binding.scope, depth + 1) if binding.value is not None else None

    def _tree_mapped(self, binding: Binding, depth: int) -> Optional[tuple[str, str]]:
        """``a, b, e = jax.tree.map(jnp.exp, (a, b, e))``: a jax.numpy function mapped over a
        tuple display gives, at each position, that function of the element there (strongly
        typed when the element is)."""
        node = binding.node
        target, value = node.targets[0].target, node.value
        if not (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, cst.Call) and len(value.args) == 2
                and (self.model.qualified_name(value.func, binding.scope) or "") in TREE_MAPS
                and (self.model.qualified_name(value.args[0].value, binding.scope) or "").startswith("jax.numpy.")
                and isinstance(value.args[1].value, cst.Tuple)):
            return None
        names = [e.value.value if isinstance(e.value, cst.Name) else None for e in target.elements]
        elements = value.args[1].value.elements
        if binding.name not in names or len(elements) != len(names) \
                or any(isinstance(e, cst.StarredElement) for e in elements):
            return None
        kind = self.kind(elements[names.index(binding.name)].value, binding.scope, depth + 1)
        return kind if kind is not None and kind[0] == "strong" else None

    def _calls_by_name(self, func: cst.FunctionDef) -> list[CallSite]:
        """The module's calls of ``func`` by its own name (``helper(x)``)."""
        return [site for site in self.model.calls_named(func.name.value) if isinstance(site.node.func, cst.Name)
                and any(b.node is func for b in self.model.bindings_at(site.node.func, site.frame.scope))]

    def _passed_kind(self, func: cst.FunctionDef, param: cst.Param, depth: int) -> Optional[tuple[str, str]]:
        """The kind every call of ``func`` by name in the module gives ``param`` (its default
        where a call leaves it out); None when the calls disagree or one is unknown."""
        positional = [p.name.value for p in positional_params(func)]
        name = param.name.value
        position = positional.index(name) if name in positional else None
        values = passed_values(self._calls_by_name(func), position, name, param.default)
        kinds = []
        for value, site in values or ():
            kind = self.kind(value, site.frame.scope, depth + 1)
            if self.strong_at_some_call and kind is not None and kind[0] == "strong":
                return kind[0], f"{kind[1]} where `{_src(site.node, 30)}` passes it"
            kinds.append(kind)
        if not values or None in kinds or len({kind[0] for kind in kinds}) != 1:
            return None
        return kinds[0]

    def _element(self, binding: Binding, depth: int) -> Optional[tuple[str, str]]:
        """The kind of what ``for x in ...`` binds: an element of an array is a strongly typed
        array (a NumPy scalar or a 0-d jax array: iterating never gives a weak type), one of a
        literal sequence of Python numbers of one kind that kind."""
        iterable, scope = _iterated(binding, self.model), binding.scope
        if iterable is None:
            return None
        if isinstance(iterable, cst.Name):
            source = self.flow.single(iterable, scope)
            if source is None or source.kind != "assign" or source.value is None or not isinstance(source.node, cst.Assign):
                return None
            iterable, scope = source.value, source.scope
        if isinstance(iterable, cst.Call) and array_made_by(self.model, iterable, scope) is not None \
                or (whole := self.kind(iterable, scope, depth + 1)) is not None and whole[0] == "strong":
            return "strong", "an element of an array (strongly typed)"
        elements = loop_elements(binding, self.flow)
        kinds = {_literal_kind(e, self.model, scope) for e in elements or ()}
        if len(kinds) == 1 and (kind := kinds.pop()) in ("int", "float") \
                and not any(isinstance(e, cst.Call) for e in elements or ()):
            return f"python {kind}", f"a Python {kind} (weakly typed)"
        return None

    def explicitly_typed(self, call: cst.Call, scope: Scope) -> bool:
        """``np.float32(x)``, ``jnp.asarray(x, dtype=...)``, ``x.astype(...)``, ``jnp.ones(())``
        (jaxfacts.STRONG_ARRAY_CONSTRUCTORS)."""
        return self.explicit_dtype(call, scope) is not None

    def explicit_dtype(self, call: cst.Call, scope: Scope) -> Optional[str]:
        """The dtype ``explicitly_typed`` calls state, by name where the code writes one
        (``float32``, ``int32``, ``bool``), else "" (a dtype held in a variable)."""
        named = _dtype_of(call.func, self.model, scope)
        if named is not None:
            return named
        qualname = self.model.qualified_name(call.func, scope) or ""
        if qualname in STRONG_ARRAY_CONSTRUCTORS:  # also inside a returned expression
            return "float32"
        if qualname in LEAF_CASTING_UPDATES:  # ``optax.apply_updates`` casts to each param's dtype
            return ""
        argument = _dtype_argument(call)
        if argument is None or not (qualname.rpartition(".")[0] in ARRAY_MODULES or (
                isinstance(call.func, cst.Attribute) and call.func.attr.value == "astype")):
            return None
        if isinstance(argument, cst.Name) and argument.value in ("bool", "int", "float"):
            return argument.value
        return _dtype_of(argument, self.model, scope) or ""

    def returns_strong(self, func, depth: int = 0, position: Optional[int] = None) -> bool:
        """A jitted body whose returned value combines a strongly typed value
        (``x + np.float32(0.)``; a local name bound to one; a parameter every jitted call passes
        a strongly typed array, ``exp_a * s`` of ``exp_a = jnp.exp(a_random)``): the result is
        strongly typed whatever the other inputs' weak type.  ``position``: only that element
        of the tuple every return builds."""
        scope = self.model.scope_of.get(func)
        returned = self._returned(func, position)
        if scope is None or not returned or depth >= KIND_DEPTH:
            return False
        return all(self._combines_strong(value, scope, func, depth) for value in returned)

    def _returned(self, func, position: Optional[int]) -> list[cst.BaseExpression]:
        """What ``func`` returns (a lambda its body), or the element at ``position`` of the tuple
        every return builds (empty when some return builds none)."""
        returned = [func.body] if isinstance(func, cst.Lambda) else [
            r.value for r, f in self.model.returns if r.value is not None and f.enclosing_function() is func]
        if position is None:
            return returned
        if not all(isinstance(v, cst.Tuple) and len(v.elements) > position for v in returned):
            return []
        return [v.elements[position].value for v in returned]  # type: ignore[attr-defined]

    def _combines_strong(self, expr: cst.BaseExpression, scope: Scope, func, depth: int, steps: int = 0) -> bool:
        if any(self.explicitly_typed(call, scope) for call in _calls_in(expr)):
            return True
        if steps > 4:
            return False
        for name in _operand_names(expr):
            bindings = self.flow.reaching(name, scope)
            if bindings and all(b.kind == "param" and b.scope is scope for b in bindings):
                if self._passed_strong(func, name.value, depth) or (
                        (kind := self.kind(name, scope, depth + 1)) is not None and kind[0] == "strong"):
                    return True
            elif bindings and all(b.kind == "assign" and isinstance(b.node, cst.Assign) and len(b.node.targets) == 1
                                  and assigned(b).value is not None for b in bindings) \
                    and all(self._combines_strong(assigned(b).value, b.scope, func, depth, steps + 1) for b in bindings):
                return True  # ``x = ...`` or ``gw, gb = jnp.mean(gw), jnp.mean(gb)``
            elif bindings and all(isinstance(b.node, cst.AugAssign) for b in bindings) \
                    and all(self._combines_strong(b.node.value, b.scope, func, depth, steps + 1) for b in bindings):
                return True  # ``w -= lr * w_grad``: a strongly typed operand makes the result strong
        return False

    def returns_float(self, func, position: Optional[int] = None) -> bool:
        """The returned value (the element at ``position``) is computed with a float: a float
        literal or a true division among its operands, through the names it is built from
        (``w -= lr * w_grad`` with ``lr = 0.001``)."""
        scope = self.model.scope_of.get(func)
        return scope is not None and any(self._mixes_float(value, scope, 0) for value in self._returned(func, position))

    def _mixes_float(self, expr: cst.BaseExpression, scope: Scope, steps: int) -> bool:
        if any(isinstance(node, (cst.Float, cst.Divide)) for node in iter_nodes(expr)):
            return True
        if steps > 4:
            return False
        for name in _operand_names(expr):
            for binding in self.flow.reaching(name, scope):
                value = binding.node.value if isinstance(binding.node, cst.AugAssign) else assigned(binding).value
                if value is not None and self._mixes_float(value, binding.scope, steps + 1):
                    return True
        return False

    def _passed_strong(self, func, param: str, depth: int) -> bool:
        """Every jitted call of ``func`` in the module gives ``param`` a strongly typed array."""
        calls = [jc for jc in self.calls.values() if jc.func is func]
        if not calls:
            return False
        for jc in calls:
            value = jc.argument(param)
            scope = self._call_scopes().get(id(jc.call))
            if value is None or scope is None:
                return False
            kind = self.kind(value, scope, depth + 1)
            if (kind is None or kind[0] != "strong") and not self._fed_back_strong(func, value, scope, depth):
                return False
        return True

    def _fed_back_strong(self, func, value: cst.BaseExpression, scope: Scope, depth: int) -> bool:
        """``n = jnp.zeros(k)`` before the loop, ``n, x = step(n, x)`` in it: a strong start,
        then the function's own result for it, which that start keeps strong."""
        if not isinstance(value, cst.Name):
            return False
        bindings = self.flow.reaching(value, scope)
        fed_back = [b for b in bindings if isinstance(b.node, cst.Assign)
                    and (jc := self.calls.get(b.node.value)) is not None and jc.func is func]
        starts = [b for b in bindings if b not in fed_back]
        return bool(fed_back) and bool(starts) and all(
            b.kind == "assign" and b.value is not None and (k := self.kind(b.value, b.scope, depth + 1)) is not None
            and k[0] == "strong" for b in starts)

    def _call_scopes(self) -> dict[int, Scope]:
        if self._scopes is None:
            self._scopes = {id(site.node): site.frame.scope for site in self.model.calls}
        return self._scopes


def _operand_names(expr: cst.BaseExpression) -> Iterator[cst.Name]:
    """The names whose values enter ``expr``'s result: not those only compared (a condition's
    dtype does not reach ``jnp.where``'s result), nor an index (``x[i]`` has ``x``'s dtype),
    attribute names or keywords."""
    if isinstance(expr, cst.Name):
        yield expr
    elif isinstance(expr, (cst.Attribute, cst.Subscript)):
        yield from _operand_names(expr.value)
    elif isinstance(expr, cst.Call):
        for arg in expr.args:
            yield from _operand_names(arg.value)
    elif not isinstance(expr, cst.Comparison):
        for child in expr.children:
            if isinstance(child, cst.BaseExpression):
                yield from _operand_names(child)
            elif isinstance(child, cst.BaseElement):  # a list or tuple display's items
                yield from _operand_names(child.value)


def _message(jc: JittedCall, kind: str, arg: cst.BaseExpression, desc: str, fix: str) -> str:
    name = jc.name
    what = f"`{_src(arg)}`"
    if kind == "shape":
        return (f"`{name}` is called in a loop with {what}, {desc}: every new shape compiles "
                f"`{name}` again; {fix}")
    if kind == "ragged":
        return (f"`{name}` is called in a loop with {what}, {desc}: the shorter batch compiles "
                f"`{name}` a second time; {fix}")
    return (f"`{name}` is called in a loop with {what}, {desc}: every new dtype compiles "
            f"`{name}` again; {fix}")


class _ArgChecker:
    def __init__(self, model: SemanticModel, flow: ValueFlow, scope: Scope,
                 loops: list[cst.CSTNode], types: "_ArgTypes",
                 project=None, context: Optional[CallingContext] = None) -> None:
        self.model = model
        self.context = context  # what the calls give a parameter, which methods instances run
        self.types = types  # the kinds of arguments (weakly typed Python numbers, strong arrays)
        # argument node id -> the weakly typed array made before the loop that it starts as
        self.weak_starts: dict[int, cst.CSTNode] = {}
        self.project = project  # (index, module name, is_package) for _loaders.ragged_source
        self.flow = flow
        self.jitted_results = types.calls.keys()  # calls of jitted callables: their results are arrays
        self.scope = scope
        self.loops = loops  # innermost first
        self.iterations = IterationValues(model, flow)

    # ------------------------------------------------------------------ loop facts
    def _inside(self, binding: Binding, loop: cst.CSTNode) -> bool:
        return binding.frame is not None and binding.frame.is_inside(loop)

    def _bindings(self, name: cst.Name, scope: Scope) -> list[Binding]:
        """The definitions that reach this read of ``name`` (flow-sensitive)."""
        return self.flow.reaching(name, scope)

    def counter(self, name: cst.Name, scope: Scope, loop: cst.CSTNode, depth: int = 0) -> bool:
        """Is ``name`` the loop's integer counter, or computed from it by integer arithmetic?"""
        bindings = self._bindings(name, scope)
        if not bindings or depth > 3 or not all(self._inside(b, loop) for b in bindings):
            return False
        for binding in bindings:
            if binding.kind == "loop-target":
                if not _counts(binding, self.model):
                    return False
            elif binding.kind == "assign" and binding.value is not None \
                    and isinstance(binding.node, cst.Assign) and len(binding.node.targets) == 1 \
                    and isinstance(binding.node.targets[0].target, cst.Name):
                if _poly(binding.value, lambda n: self.counter(n, binding.scope, loop, depth + 1)
                         or self.invariant(n, binding.scope, loop)) is None \
                        or not self.mentions_counter(binding.value, binding.scope, loop, depth + 1):
                    return False
            else:
                return False
        return True

    def invariant(self, name: cst.Name, scope: Scope, loop: cst.CSTNode) -> bool:
        bindings = self._bindings(name, scope)
        return all(not self._inside(b, loop) for b in bindings)

    def varying(self, name: cst.Name, scope: Scope, loop: cst.CSTNode) -> bool:
        return any(self._inside(b, loop) for b in self._bindings(name, scope))

    def mentions_counter(self, expr: cst.BaseExpression, scope: Scope, loop: cst.CSTNode,
                         depth: int = 0) -> bool:
        return any(self.counter(n, scope, loop, depth) for n in name_loads(expr))

    def _varies_with_counter(self, lower, upper, scope: Scope, loop) -> Optional[bool]:
        """Does ``upper - lower`` depend on the loop counter?  None: cannot tell."""
        counters: set[str] = set()

        def known(n: cst.Name) -> bool:
            if self.counter(n, scope, loop):
                counters.add(n.value)
                return True
            return self.invariant(n, scope, loop)

        # names the loop body binds once to arithmetic, replaced first (``start = i * B; end =
        # start + B``: the width is ``B`` whatever ``i``), when every name left is known
        expanded = [self._expanded(bound, scope, loop) if bound is not None else {} for bound in (lower, upper)]
        if all(poly is not None for poly in expanded) and all(
                v.isidentifier() and known(cst.Name(v)) for poly in expanded for term in poly for v in term):  # type: ignore[union-attr]
            low, high = expanded
        else:
            low = _poly(lower, known) if lower is not None else {}
            high = _poly(upper, known)
        if low is None or high is None:
            return None
        width = dict(high)
        for term, coeff in low.items():
            width[term] = width.get(term, 0) - coeff
        return any(coeff and any(v in counters for v in term) for term, coeff in width.items())

    # ------------------------------------------------------------------ shapes
    def shape(self, arg: cst.BaseExpression) -> Optional[tuple[str, str]]:
        for index, loop in enumerate(self.loops):
            result = self._shape_in(arg, self.scope, loop, depth=0)
            if result is not None and index > 0 and LISTED in result[0]:
                # ``for N in (50, 100, 200): for rs in range(5): f(draw(N))``: each listed size is
                # a configuration the inner loop repeats; one compile per size serves its calls
                continue
            if result is not None:
                return result
        return None

    def _shape_in(self, expr, scope: Scope, loop, depth: int) -> Optional[tuple[str, str]]:
        if isinstance(expr, cst.Name):
            value = self._value_in_loop(expr, scope, loop)
            if value is not None and isinstance(value[0], cst.Subscript) and depth < 2:
                cropped = self._cropped(value[0], value[1], loop)  # ``context = context[:, -window:]``
                if cropped is not None:
                    return cropped
            grows = self._grows(expr, scope, loop)
            if grows is not None:
                return grows
            found = self._shape_in(value[0], value[1], loop, depth + 1) if value is not None and depth < 2 else None
            return found or self._episode(expr, scope, loop)
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Subscript) and depth < 2:
            # ``trajectory[t:].r``: a field of a slice of a sequence object keeps the slice's length
            return self._shape_in(expr.value, scope, loop, depth + 1)
        if isinstance(expr, cst.Attribute) and depth < 2:  # ``state.window = x[:i]`` ... ``f(state.window)``
            written = self.iterations.attribute_value(expr, scope, loop)
            if written is None:
                return None
            own = _src(expr, 200)
            if _concatenates_itself(self.model, written, own, scope):
                return "an array grown by concatenation on every iteration", GROW_FIX
            if self._resizes_itself(written, own, scope, loop):
                return (f"an array resized from itself on every iteration (`{_src(expr)} = "
                        f"{_src(written, 30)}`)", SHRINK_FIX)
            return self._shape_in(written, scope, loop, depth + 1)
        if isinstance(expr, cst.ListComp) and isinstance(expr.for_in.iter, cst.Name) \
                and not expr.for_in.ifs and expr.for_in.inner_for_in is None:
            return self._grows(expr.for_in.iter, scope, loop)  # ``[h for h in history]``
        if isinstance(expr, cst.IfExp) and depth < 3:  # ``idx if short else idx[:, -k:]``
            return self._shape_in(expr.orelse, scope, loop, depth + 1) \
                or self._shape_in(expr.body, scope, loop, depth + 1)
        if isinstance(expr, cst.Subscript) and depth < 2 and _adds_axes(expr):
            return self._shape_in(expr.value, scope, loop, depth + 1)  # ``jnp.array(output)[None]``
        if isinstance(expr, cst.Subscript):
            return self._slice(expr, scope, loop) or self._mask(expr, scope, loop) \
                or self._index_array(expr, scope, loop, depth) or self._cropped(expr, scope, loop)
        if isinstance(expr, cst.Call) and depth < 2 and len(expr.args) >= 1 and expr.args[0].keyword is None \
                and not expr.args[0].star and isinstance(expr.args[0].value, (cst.Call, cst.Name, cst.Subscript, cst.IfExp)) \
                and self.model.qualified_name(expr.func, scope) in SHAPE_KEEPING_CONVERSIONS | AXES_KEEPING_CALLS:
            # ``jnp.asarray(np.arange(n))``, ``jnp.expand_dims(jnp.array(output), axis=0)``,
            # ``jnp.array(tokens[-k:] if len(tokens) > k else tokens)``
            inner = self._shape_in(expr.args[0].value, scope, loop, depth + 1)
            if inner is not None:
                return inner
        if isinstance(expr, cst.Call) and depth < 3 and isinstance(expr.func, cst.Attribute) \
                and expr.func.attr.value in SHAPE_KEEPING_METHODS:
            return self._shape_in(expr.func.value, scope, loop, depth + 1)  # ``points.astype(np.float32)``
        if isinstance(expr, cst.Call) and depth < 3 and expr.args and isinstance(expr.args[0].value, (cst.List, cst.Tuple)) \
                and _joins_other_axes(expr, self.model.qualified_name(expr.func, scope)):
            # ``np.concatenate([ids, xy], axis=1)``: a part of a changing shape changes the whole
            return next((found for element in expr.args[0].value.elements
                         if (found := self._shape_in(element.value, scope, loop, depth + 1)) is not None), None)
        if isinstance(expr, cst.Call):
            return self._sized(expr, scope, loop) or self._reshaped(expr, scope, loop) \
                or self._data_sized(expr, scope, loop) or self._listed(expr, scope, loop) \
                or self._index_array(expr, scope, loop, depth) or self._counted_sequence(expr, scope, loop) \
                or self._returned_sized(expr, scope, loop)
        if isinstance(expr, cst.BinaryOperation):
            found = self._counted_sequence(expr, scope, loop)
            if found is None and isinstance(expr.operator, ARITHMETIC) and depth < 2:
                # ``jnp.ones(n) * 2.0``: elementwise arithmetic keeps the operand's shape
                found = self._shape_in(expr.left, scope, loop, depth + 1) \
                    or self._shape_in(expr.right, scope, loop, depth + 1)
            return found
        return None

    def _episode(self, name: cst.Name, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """``obs, a, r = rollout(params, key)`` on every iteration: arrays as long as the episode
        the rollout ran (_episodes: a loop that stops on ``done``)."""
        bindings = self._bindings(name, scope)
        if not bindings or not all(self._inside(b, loop) for b in bindings):
            return None
        episode = episode_length(self.model, self.flow, name, scope)
        return (episode.describe(), EPISODE_FIX) if episode is not None else None

    def _returned_sized(self, call: cst.Call, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """``make_batch(rows)``: a module function whose every ``return`` builds an array sized
        by one of its parameters (``jnp.ones((rows, 2))``), given the loop counter there: the
        returned call read with the arguments in place of the parameters."""
        found = None
        for returned in returned_values(self.model, self.flow, call, scope):
            if not isinstance(returned.value, cst.Call) or any(a.star for a in call.args):
                return None
            params = [p.name.value for p in (*returned.function.params.posonly_params,
                                             *returned.function.params.params)]
            passed = {name: arg.value for name, arg in zip(params, call.args) if arg.keyword is None}
            passed.update({arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None})
            inlined = substituted(returned.value, passed)  # the caller's arguments for the parameters
            sized = self._sized(inlined, scope, loop) if isinstance(inlined, cst.Call) else None
            if sized is None:
                return None
            found = found or (f"{sized[0]} (returned by `{returned.function.name.value}`)", sized[1])
        return found

    def _cropped(self, sub: cst.Subscript, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """``tokens[:, -block_size:]`` of an array grown on every iteration (a generation loop's
        context window): a new length on every iteration until it reaches the bound."""
        if not isinstance(sub.value, cst.Name) or self._grows(sub.value, scope, loop) is None:
            return None
        bound = None
        for element in sub.slice:
            piece = element.slice
            if not isinstance(piece, cst.Slice) or piece.upper is not None or piece.step is not None:
                return None
            lower = piece.lower
            if isinstance(lower, cst.UnaryOperation) and isinstance(lower.operator, cst.Minus):
                bound = lower.expression
            elif lower is not None:
                return None
        if bound is None or self._starts_full(sub.value, scope, loop, _src(bound)):
            return None
        return (f"an array grown on every iteration and cropped to its last `{_src(bound)}` "
                f"entries, so its length changes on every iteration until it reaches that bound",
                "preallocate the full length (a fixed window padded from the left) and pass the "
                "position as an argument, or pad the context to a few bucket lengths")

    def _starts_full(self, name: cst.Name, scope: Scope, loop, bound: str) -> bool:
        """The array enters the loop already as long as the crop: every binding that reaches
        the loop from before it is made with the bound (``context = jnp.tile(start, T)``, also
        cropped again before the loop: ``context = context[None, -T:]``)."""
        outside = [b for b in self._bindings(name, scope) if not self._inside(b, loop)]
        if not outside:
            return False
        for binding in outside:
            value = binding.value if binding.kind == "assign" else None
            for _ in range(3):  # through crops of itself made before the loop
                if not (isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name)):
                    break
                earlier = self.flow.single(value.value, binding.scope)
                value = earlier.value if earlier is not None and earlier.kind == "assign" else None
            if not (isinstance(value, cst.Call) and any(_src(node) == bound for node in iter_nodes(value)
                                                         if isinstance(node, (cst.Name, cst.Attribute)))):
                return False
        return True

    def _counted_sequence(self, expr, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """``[x] * i``, ``tuple(range(i))``: a list or tuple (a pytree) whose length is the loop
        counter; every new length is a new tree structure."""
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply):
            for sequence, count in ((expr.left, expr.right), (expr.right, expr.left)):
                if isinstance(sequence, (cst.List, cst.Tuple)) and self.mentions_counter(count, scope, loop):
                    return "a sequence whose length is the loop counter", GROW_FIX
            return None
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) \
                and expr.func.value in ("tuple", "list") and not self.model.lookup(expr.func.value, scope) \
                and len(expr.args) == 1 and isinstance(expr.args[0].value, cst.Call):
            inner = expr.args[0].value
            if isinstance(inner.func, cst.Name) and inner.func.value == "range" \
                    and not self.model.lookup("range", scope) \
                    and any(self.mentions_counter(a.value, scope, loop) for a in inner.args):
                return "a sequence whose length is the loop counter", GROW_FIX
        return None

    def _index_array(self, expr, scope: Scope, loop, depth: int) -> Optional[tuple[str, str]]:
        """``np.nonzero(x > t)[0]``, ``np.flatnonzero(...)``, ``np.unique(...)`` of data that
        changes in the loop, or ``x[idx]`` indexed by one: the length depends on the data."""
        call = expr.value if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Call) else expr
        if isinstance(call, cst.Call):
            qualname = self.model.qualified_name(call.func, scope) or ""
            module, _, function = qualname.rpartition(".")
            sized_by_data = function in DATA_SIZED or (function == "where" and len(call.args) == 1)
            if module in ARRAY_MODULES and sized_by_data and (function not in ("nonzero", "where")
                                                               or isinstance(expr, cst.Subscript)):
                if any(self.varying(n, scope, loop) for n in name_loads(call)):
                    return ("an index array whose length depends on the data of each iteration",
                            MASK_FIX)
            return None
        if isinstance(expr, cst.Subscript) and depth < 2:
            for element in expr.slice:
                piece = element.slice
                if isinstance(piece, cst.Index) and isinstance(piece.value, cst.Name):
                    value = self._value_in_loop(piece.value, scope, loop)
                    if value is not None and self._index_array(value[0], value[1], loop, depth + 1):
                        return ("indexed by an array whose length depends on the data of each "
                                "iteration", MASK_FIX)
                    if value is not None and self._shape_in(value[0], value[1], loop, depth + 1):
                        return ("indexed by an array whose length changes on every iteration",
                                SIZED_FIX)
        return None

    def _value_in_loop(self, name: cst.Name, scope: Scope, loop):
        """The value of a name assigned once, inside the loop: ``chunk = x[:i]``."""
        bindings = self._bindings(name, scope)
        if len(bindings) == 1 and bindings[0].kind == "assign" and self._inside(bindings[0], loop) \
                and bindings[0].value is not None and isinstance(bindings[0].node, cst.Assign) \
                and isinstance(bindings[0].node.targets[0].target, cst.Name):
            return bindings[0].value, bindings[0].scope
        return None

    def _slice(self, sub: cst.Subscript, scope: Scope, loop) -> Optional[tuple[str, str]]:
        for element in sub.slice:
            piece = element.slice
            if not isinstance(piece, cst.Slice):
                continue
            if piece.step is not None and self.mentions_counter(piece.step, scope, loop):
                return None
            lower, upper = piece.lower, piece.upper
            low_dep = lower is not None and self.mentions_counter(lower, scope, loop)
            high_dep = upper is not None and self.mentions_counter(upper, scope, loop)
            if not (low_dep or high_dep):
                how = self._one_bound_varies(lower, upper, scope, loop)
                if how is not None:
                    return f"a slice bounded by {how}", WINDOW_FIX
                continue
            if lower is None or upper is None:
                return "a slice bounded by the loop counter", WINDOW_FIX
            if high_dep and not low_dep and isinstance(lower, cst.Name) and self._segment_start(lower, scope, loop):
                return (f"a slice from `{lower.value}` to the loop counter, where `{lower.value}` moves to the "
                        f"counter only when a segment (an episode) ends: its length is each segment's"), SEGMENT_FIX
            if self._varies_with_counter(lower, upper, scope, loop):
                return "a slice whose length depends on the loop counter", WINDOW_FIX
        return None

    def _segment_start(self, name: cst.Name, scope: Scope, loop) -> bool:
        """``start_t`` of ``x[start_t:i + 1]``, set before the loop and, inside it, to the
        counter under an ``if`` only (``if done: ...; start_t = i + 1``): the start of the
        current episode, so the slice is as long as the episode (rl-blox PR 109)."""
        inside = [b for b in self._bindings(name, scope) if self._inside(b, loop)]
        return bool(inside) and len(inside) < len(self._bindings(name, scope)) and all(
            b.kind == "assign" and b.value is not None and conditional_within(b, loop)
            and self.mentions_counter(b.value, b.scope, loop) and not self._regular_test(b, scope, loop)
            for b in inside)

    def _regular_test(self, binding: Binding, scope: Scope, loop) -> bool:
        """The ``if`` around ``binding`` tests only the counter and values fixed for the loop
        (``if i % horizon == horizon - 1``): segments of one length, one shape."""
        test = next((f.node.test for f in binding.frame if isinstance(f.node, cst.If)), None) \
            if binding.frame is not None else None
        return test is not None and all(self.counter(n, scope, loop) or self.invariant(n, scope, loop)
                                        for n in name_loads(test))

    def _one_bound_varies(self, lower, upper, scope: Scope, loop) -> Optional[str]:
        """How one bound of ``x[lower:upper]`` takes a new value on every iteration while the
        other (if any) stays put: ``x[:n - k]`` with ``k += 1``, ``x[start:n]`` with ``start``
        carried.  Both moving (``x[s:s + 4]`` with ``s += 4``) may keep the width: None."""
        bounds = [b for b in (lower, upper) if b is not None]
        moving = [how for b in bounds if (how := self.size_varies(b, scope, loop)) is not None]
        if len(moving) != 1:
            return None
        if len(bounds) == 2 and not any(self.iterations.invariant(b, scope, loop) for b in bounds):
            return None
        return moving[0]

    def _mask(self, sub: cst.Subscript, scope: Scope, loop) -> Optional[tuple[str, str]]:
        for element in sub.slice:
            piece = element.slice
            if isinstance(piece, cst.Index) and _is_mask(piece.value, self.model, self.flow, scope):
                names = list(name_loads(sub.value)) + list(name_loads(piece.value))
                if any(self.varying(n, scope, loop) for n in names):
                    return ("a boolean-mask index, whose size depends on the data of each "
                            "iteration", MASK_FIX)
        return None

    def _reshaped(self, call: cst.Call, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """``x.reshape((i, i))`` / ``jnp.reshape(x, (i, n))``: a new shape from the loop counter."""
        func = call.func
        qualname = self.model.qualified_name(func, scope) or ""
        if isinstance(func, cst.Attribute) and func.attr.value == "reshape" and not qualname:
            shape = [a.value for a in call.args if a.keyword is None or a.keyword.value == "shape"]
        elif qualname.rpartition(".")[0] in ARRAY_MODULES and qualname.endswith(".reshape"):
            shape = [a.value for a in call.args[1:] if a.keyword is None or a.keyword.value in ("shape", "newshape")]
        else:
            return None
        if any(self.mentions_counter(dim, scope, loop) for dim in shape):
            return "an array reshaped to a shape of the loop counter", SIZED_FIX
        return None

    def _data_sized(self, call: cst.Call, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """``np.flatnonzero(rng.random(n) > p)``, ``np.unique(labels)``: a NumPy or jax.numpy
        function whose output length is the data's (jaxfacts.DATA_SIZED_OUTPUTS, outside jit no
        ``size=`` fixes it), given values that change on every iteration."""
        qualname = self.model.qualified_name(call.func, scope) or ""
        module, _, function = qualname.rpartition(".")
        fact = DATA_SIZED_OUTPUTS.get(f"jax.numpy.{function}") if module in ARRAY_MODULES else None
        if fact is None or any(a.keyword is not None and a.keyword.value == fact.size_keyword for a in call.args):
            return None
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if fact.max_positional is not None and len(positional) > fact.max_positional:
            return None  # ``np.where(c, x, y)``: the shape of its operands
        if not any(self.varying(n, scope, loop) for a in call.args for n in name_loads(a.value)) \
                and not any(self._draws(a.value, scope) for a in call.args):
            return None
        return (f"`{_src(call, 40)}`, whose length is the data's: a new length on most iterations",
                "pad it to a fixed length (jnp.nonzero(..., size=N, fill_value=...)) or pass a "
                "fixed-size boolean mask instead of the indices")

    def _draws(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        """``rng.random(n)``, ``np.random.rand(n)``, ``jax.random.uniform(k, (n,))``: a new
        random draw every time it runs."""
        for node in iter_nodes(expr):
            if isinstance(node, cst.Call):
                qualname = self.model.qualified_name(node.func, scope) or ""
                if qualname.startswith(("numpy.random.", "jax.random.", "random.")):
                    return True
                if isinstance(node.func, cst.Attribute) and node.func.attr.value in RANDOM_DRAW_METHODS:
                    return True
        return False

    def _sized(self, call: cst.Call, scope: Scope, loop) -> Optional[tuple[str, str]]:
        qualname = self.model.qualified_name(call.func, scope) or ""
        module, _, function = qualname.rpartition(".")
        size: Optional[cst.BaseExpression] = None
        if module in ARRAY_MODULES and function in SIZED_SHAPE_ARG0:
            size = argument_value(call, 0, "shape", "N")
        elif module in ARRAY_MODULES and function == "linspace":
            size = argument_value(call, 2, "num")
        elif qualname in RANDOM_SHAPE_ARG1:
            size = argument_value(call, 1, "shape")
        elif (drawn_size := host_random_size(self.model, call, qualname, scope)) is not None:
            position, keyword = drawn_size
            if position == -1:  # ``np.random.rand(n, 3)``: every argument is a dimension
                dimensions = [a.value for a in call.args if a.keyword is None and not a.star]
                size = cst.Tuple([cst.Element(d) for d in dimensions]) if dimensions else None
            else:
                size = argument_value(call, position, keyword)
        elif module in ARRAY_MODULES and function == "arange":
            positional = [a.value for a in call.args if a.keyword is None and not a.star]
            if len(positional) == 1 and self.mentions_counter(positional[0], scope, loop):
                return "an array whose length is the loop counter", SIZED_FIX
            if len(positional) >= 2 and (self.mentions_counter(positional[0], scope, loop)
                                         or self.mentions_counter(positional[1], scope, loop)):
                if len(positional) == 2 and self._varies_with_counter(positional[0], positional[1],
                                                                      scope, loop):
                    return "an array whose length depends on the loop counter", SIZED_FIX
                return None
            if len(positional) >= 2:  # ``jnp.arange(0.0, T, dt)`` over durations: one bound varies
                bounds = positional[:2]
                if all(self.iterations.invariant(p, scope, loop) for p in positional[2:]):
                    for varying, other in ((bounds[1], bounds[0]), (bounds[0], bounds[1])):
                        how = self.iterations.invariant(other, scope, loop) and self._bound_varies(varying, scope, loop)
                        if how:
                            return f"an array whose length depends on {how}", SIZED_FIX
                return None
            size = positional[0] if len(positional) == 1 else None
        if size is None:
            return None
        if self.mentions_counter(size, scope, loop):
            return "an array whose shape depends on the loop counter", SIZED_FIX
        how = self.size_varies(size, scope, loop)
        if how is not None:
            return f"an array whose shape depends on {how}", SIZED_FIX
        return None

    def _bound_varies(self, expr: cst.BaseExpression, scope: Scope, loop) -> Optional[str]:
        """How a range bound (``T`` of ``arange(0.0, T, dt)``) changes on the iterations: taken
        from a literal list of at least 3 different numbers, or a size that varies."""
        for name in name_loads(expr):
            values = self._loop_values(name, scope, loop)
            numbers = {v.evaluated_value for v in values or () if isinstance(v, (cst.Integer, cst.Float))}
            if values is not None and len(numbers) >= 3 and len(numbers) == len(values):
                return f"`{name.value}`, {LISTED} {len(numbers)} different bounds"
        return self.size_varies(expr, scope, loop)

    def size_varies(self, expr: cst.BaseExpression, scope: Scope, loop, depth: int = 0) -> Optional[str]:
        """How a size (not the loop counter) takes a new value on the iterations of ``loop``:
        the loop's target over a literal list of at least 3 different ints (``for n in [5, 8,
        10]``, also converted in the loop first: ``n = int(n)``), or
        a value that changes on every iteration (``n = len(history)`` of a growing list,
        ``n += 8``; values.IterationValues).  None: it does not, as far as the code shows."""
        iterations = IterationValues(self.model, self.flow)
        expanded = self._expanded(expr, scope, loop)
        if expanded is not None and not any(coeff for term, coeff in expanded.items() if term):
            return None  # ``n_par - width`` with ``n_par = width + 4``: the same size every time
        # ``x.shape[0]`` of ``x = jax.random.normal(key, (2, 4))``: new random values, one shape
        shape_reads = {id(node.value) for node in iter_nodes(expr)
                       if isinstance(node, cst.Attribute) and node.attr.value in ("shape", "size", "ndim")}
        for name in name_loads(expr):
            values = self._loop_values(name, scope, loop)
            bindings = self._bindings(name, scope)
            if values is None and depth < 2 and len(bindings) == 1 and self._inside(bindings[0], loop) \
                    and _is_conversion(bindings[0].value, self.model, scope):
                converted = self.size_varies(bindings[0].value, scope, loop, depth + 1)  # type: ignore[arg-type]
                if converted is not None:
                    return converted
            if values is not None:
                sizes = {int(v.evaluated_value) for v in values if isinstance(v, cst.Integer)}
                # Two sizes (a train and an eval shape) are a fixed, visible cost, left alone
                # as JIT503 leaves two structures; three or more is a sweep that compiles each.
                if len(sizes) >= 3 and all(isinstance(v, cst.Integer) for v in values):
                    return f"`{name.value}`, {LISTED} {len(sizes)} different sizes"
                continue
            how = iterations.varies_in(name, scope, loop) or (
                self._drawn(name, scope, loop) if id(name) not in shape_reads else None)
            if how is not None:
                return how
        return None

    def _expanded(self, expr: cst.BaseExpression, scope: Scope, loop, depth: int = 0) -> Optional[Poly]:
        """``expr`` as a polynomial, names the loop body binds once to integer arithmetic
        replaced by it (``n_par = width + 2 * order``), other names kept as symbols."""
        if isinstance(expr, cst.Name) and depth < 3:
            bindings = self._bindings(expr, scope)
            if len(bindings) == 1 and bindings[0].kind == "assign" and self._inside(bindings[0], loop) \
                    and isinstance(bindings[0].node, cst.Assign) and bindings[0].value is not None \
                    and isinstance(bindings[0].value, (cst.BinaryOperation, cst.Integer)):
                return self._expanded(bindings[0].value, bindings[0].scope, loop, depth + 1)
            return {(expr.value,): 1}
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply)):
            left = self._expanded(expr.left, scope, loop, depth)
            right = self._expanded(expr.right, scope, loop, depth)
            if left is None or right is None:
                return None
            return _combine(left, right, expr.operator)
        return _poly(expr, lambda n: False) if isinstance(expr, (cst.Integer, cst.UnaryOperation)) else None

    def _drawn(self, name: cst.Name, scope: Scope, loop) -> Optional[str]:
        """``n = rng.integers(1, 5)`` in the loop, or ``for n in np.random.randint(3, 10, 5)``:
        a size drawn at random, a new one on most iterations."""
        bindings = self._bindings(name, scope)
        if len(bindings) != 1 or not self._inside(bindings[0], loop):
            return None
        binding = bindings[0]
        if binding.kind == "loop-target" and isinstance(binding.node, cst.For) and binding.node is loop:
            drawn = binding.node.iter
        elif binding.kind == "assign" and binding.value is not None:
            drawn = binding.value
        else:
            return None
        return f"`{name.value}`, drawn at random on every iteration" if self._draws(drawn, binding.scope) else None

    def _listed(self, call: cst.Call, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """``jnp.array(growing_list)`` / ``tuple(growing_list)``."""
        qualname = self.model.qualified_name(call.func, scope) or ""
        module, _, function = qualname.rpartition(".")
        is_builtin_tuple = isinstance(call.func, cst.Name) and call.func.value == "tuple" \
            and not self.model.lookup("tuple", scope)
        if not ((module in ARRAY_MODULES and function in TO_ARRAY) or is_builtin_tuple):
            return None
        if call.args and call.args[0].keyword is None and not call.args[0].star:
            # ``jnp.concatenate([context] + outputs)``: each list added in counts
            for part in _added_lists(call.args[0].value):
                growth = self._grows(part, scope, loop)
                if growth is not None and not _padded_by_length_of(call.args[0].value, part.value):
                    return growth
            first = call.args[0].value
            rows = self._loop_values(first, scope, loop) if isinstance(first, cst.Name) else None
            lengths = {len(row.elements) for row in rows or () if isinstance(row, (cst.List, cst.Tuple))}
            if rows and len(lengths) >= 3 and all(isinstance(row, (cst.List, cst.Tuple)) for row in rows):
                # ``for sent in [[1, 2], [3, 4, 5], ...]: jnp.array(sent)``: one length per row
                return (f"an array made from `{first.value}`, taken from lists of {len(lengths)} "
                        f"different lengths", SIZED_FIX)
        return None

    def _grows(self, name: cst.Name, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """A list that grows, or an array concatenated onto itself, on every iteration."""
        bindings = carried(self.flow, self._bindings(name, scope), name.value)
        outside = [b for b in bindings if not self._inside(b, loop)]
        inside = [b for b in bindings if self._inside(b, loop)]
        # (``context = context[:, -window:]`` before the concatenation: the window crop, which
        # _cropped reports, keeps it growing until the bound)
        if inside and any(self._is_concatenation(b, name.value) for b in inside) and all(
                self._is_concatenation(b, name.value) or _window_crop(b, name.value) for b in inside) \
                and not any(_grown_when_full(b, name.value, loop) for b in inside):
            return "an array grown by concatenation on every iteration", GROW_FIX
        if not outside:
            return None
        if inside and all(self._sliced_from_itself(b, name.value, loop) for b in inside):
            return (f"an array resized from itself on every iteration (`{_src(inside[0].node, 40)}`)",
                    SHRINK_FIX)
        if all(_is_list_value(b) for b in outside):
            growth = _list_growth(loop, name.value, bindings, self.model)
            if growth and all(_is_list_extension(b) for b in inside):
                return "a list that grows on every iteration", GROW_FIX
        if inside and all(_is_tuple_value(b) for b in outside) and all(_is_list_extension(b) for b in inside):
            return "a tuple that grows on every iteration (`+= (x,)`)", GROW_FIX
            return None
        return None

    def _sliced_from_itself(self, binding: Binding, name: str, loop) -> bool:
        """``m = m[:-1]`` run on every iteration (not under an ``if`` in the loop: that runs
        now and then): see _resizes_itself."""
        if binding.kind != "assign" or not isinstance(binding.node, cst.Assign) \
                or len(binding.node.targets) != 1 or binding.value is None \
                or conditional_within(binding, loop):
            return False
        return self._resizes_itself(binding.value, name, binding.scope, loop)

    def _resizes_itself(self, value: cst.BaseExpression, own: str, scope: Scope, loop) -> bool:
        """``value``, assigned to ``own`` (a name or ``self.buf``), is ``own`` made smaller or
        larger: ``x[1:]``, ``x[:-1]``, ``x[1:, 1:]``, ``x[::2]``, ``x[:len(x) - 1]``, ``x[:n]``
        with ``n`` changing on every iteration, ``jnp.delete(x, 0)``, ``jnp.pad(x, (0, 1))``.
        ``x[:n]`` with a fixed ``n`` shrinks once, then keeps its shape: left alone."""
        if isinstance(value, cst.Call) and value.args and not value.args[0].keyword \
                and _src(value.args[0].value, 200) == own:
            qualname = self.model.qualified_name(value.func, scope) or ""
            module, _, function = qualname.rpartition(".")
            if module not in ARRAY_MODULES or len(value.args) < 2:
                return False
            if function == "delete":
                return True
            return function == "pad" and any(
                _int_literal(n) != 0 for n in _walk(value.args[1].value) if isinstance(n, (cst.Integer, cst.Name)))
        if not isinstance(value, cst.Subscript) or _src(value.value, 200) != own:
            return False
        for element in value.slice:
            piece = element.slice
            if not isinstance(piece, cst.Slice):
                return False  # ``x = x[0]`` drops an axis; ``x[idx]``: not followed
            if _positive(piece.lower) or _negative(piece.upper) or _length_minus(piece.upper, own) \
                    or (_int_literal(piece.step) or 1) > 1:
                return True
            if self._one_bound_varies(piece.lower, piece.upper, scope, loop) is not None:
                return True
        return False

    def _is_concatenation(self, binding: Binding, name: str) -> bool:
        if binding.kind != "assign" or not isinstance(binding.node, cst.Assign) or binding.value is None:
            return False
        return _concatenates_itself(self.model, binding.value, name, binding.scope)


    # ------------------------------------------------------------------ ragged batches
    def ragged(self, arg: cst.BaseExpression) -> Optional[tuple[str, str]]:
        drawn = self._drawn_batch(arg)
        if drawn is not None:
            return drawn
        for loop in self.loops:
            if isinstance(loop, cst.While):
                expr = arg
                if isinstance(arg, cst.Name):
                    value = self._batch_in_loop(arg, loop) or self._value_in_loop(arg, self.scope, loop)
                    expr = value[0] if value is not None else arg
                found = self._while_batch_slice(expr, loop)
                if found is not None:
                    return found
                continue
            if not isinstance(loop, cst.For):
                continue
            expr = arg
            if isinstance(arg, cst.Name):
                value = self._batch_in_loop(arg, loop) or self._value_in_loop(arg, self.scope, loop)
                if value is not None:
                    expr = value[0]
            found = self._batch_slice(expr, loop) or self._loader_batch(expr, loop)
            if found is not None:
                return found
        return None

    def _drawn_batch(self, arg: cst.BaseExpression, depth: int = 0) -> Optional[tuple[str, str]]:
        """``update(i, opt_state, next(batches))`` in a loop, ``batches`` an iterator over a
        ragged source made outside it (``batches = data_stream()``: JAX's MNIST example), or a
        name the loop binds to such a draw (``x, y = next(batches)``), or a tuple of them."""
        if isinstance(arg, (cst.Tuple, cst.List)):
            return next((found for e in arg.elements if (found := self._drawn_batch(e.value, depth + 1)) is not None),
                        None)
        if isinstance(arg, cst.Name) and depth < 3:
            bindings = self._bindings(arg, self.scope)
            if len(bindings) == 1 and isinstance(bindings[0].node, cst.Assign) \
                    and any(self._inside(bindings[0], loop) for loop in self.loops):
                return self._drawn_batch(bindings[0].node.value, depth + 1)
            return None
        if not (isinstance(arg, cst.Call) and isinstance(arg.func, cst.Name) and arg.func.value == "next"
                and not self.model.lookup("next", self.scope) and len(arg.args) == 1
                and isinstance(arg.args[0].value, cst.Name)):
            return None
        iterator = arg.args[0].value
        if any(self._inside(b, loop) for b in self._bindings(iterator, self.scope) for loop in self.loops):
            return None
        source = ragged_source(self.model, self.flow, iterator, self.scope, project=self.project, context=self.context)
        return (source.what, source.fix) if source is not None else None

    def _loader_batch(self, expr, loop: cst.For) -> Optional[tuple[str, str]]:
        """``for x, y in loader: f(x)``: a batch the loop takes from a source whose last batch
        is shorter (_loaders.ragged_source: library loaders, generators, np.array_split)."""
        if not any(b.node is loop for n in name_loads(expr) for b in self._bindings(n, self.scope)) \
                and not self._carries_loop_rows(expr, self.scope, loop):
            return None
        source = ragged_source(self.model, self.flow, loop.iter, self.scope, project=self.project,
                               context=self.context)
        return (source.what, source.fix) if source is not None else None

    def _carries_loop_rows(self, expr: cst.BaseExpression, scope: Scope, loop: cst.For, depth: int = 0) -> bool:
        """Does ``expr`` hold the rows of the item the loop takes, through names the loop body
        binds once to values that keep them: ``real = (real - 127.5) / 127.5``, ``x = real``,
        ``x = jnp.concatenate([real, fake])`` (lengths add up), ``x.astype(...)``, ``batch["x"]``,
        ``x[:, :3]``?  A size (``x.shape[0]``, ``len(x)``) or a row (``x[0]``) does not."""
        if depth > 4:
            return False
        if isinstance(expr, cst.Name):
            bindings = self._bindings(expr, scope)
            if any(b.node is loop for b in bindings):
                return True
            if not (len(bindings) == 1 and bindings[0].kind == "assign" and self._inside(bindings[0], loop)
                    and isinstance(bindings[0].node, cst.Assign)):
                return False
            # ``obs, actions = batch``: an element of the loop's item holds its rows, also when
            # each is converted on the way (``x, y = map(lambda t: t.numpy(), batch)``)
            unpacked = bindings[0].node.value
            if bindings[0].value is None and isinstance(unpacked, cst.Call) \
                    and (self._helper_keeps_rows(unpacked, bindings[0], loop, depth)
                         or self._converted_element_keeps_rows(unpacked, bindings[0], loop, depth)):
                return True
            value = bindings[0].value if bindings[0].value is not None else \
                unpacked if isinstance(unpacked, cst.Name) else \
                self._mapped_sequence(unpacked, bindings[0].scope) if isinstance(unpacked, cst.Call) else None
            return value is not None and self._carries_loop_rows(value, bindings[0].scope, loop, depth + 1)
        if isinstance(expr, cst.BinaryOperation):
            return self._carries_loop_rows(expr.left, scope, loop, depth + 1) \
                or self._carries_loop_rows(expr.right, scope, loop, depth + 1)
        if isinstance(expr, cst.UnaryOperation):
            return self._carries_loop_rows(expr.expression, scope, loop, depth + 1)
        if isinstance(expr, (cst.List, cst.Tuple)):
            return any(self._carries_loop_rows(e.value, scope, loop, depth + 1) for e in expr.elements)
        if isinstance(expr, cst.Subscript):  # a column, a field, a slice of the rows keep them
            first = expr.slice[0].slice if expr.slice else None
            keeps = isinstance(first, cst.Slice) and first.lower is None and first.upper is None \
                or isinstance(first, cst.Index) and isinstance(first.value, cst.SimpleString)
            return keeps and self._carries_loop_rows(expr.value, scope, loop, depth + 1)
        if isinstance(expr, cst.Call):
            func = expr.func
            if isinstance(func, cst.Attribute) and func.attr.value in ROW_KEEPING_METHODS:
                return self._carries_loop_rows(func.value, scope, loop, depth + 1)
            qualname = self.model.qualified_name(func, scope)
            positional = [a.value for a in expr.args if a.keyword is None and not a.star]
            if qualname in SHAPE_KEEPING_CONVERSIONS:
                return bool(positional) and self._carries_loop_rows(positional[0], scope, loop, depth + 1)
            mapped = self._mapped_sequence(expr, scope)
            if mapped is not None:
                return self._carries_loop_rows(mapped, scope, loop, depth + 1)
            if qualname in SHAPE_JOINING_CALLS and positional and isinstance(positional[0], (cst.List, cst.Tuple)):
                parts = [e.value for e in positional[0].elements]
                carrying = [p for p in parts if self._carries_loop_rows(p, scope, loop, depth + 1)]
                # along axis 0 a part sized by the batch (``jnp.zeros((B - len(x), 4))``) pads it
                return bool(carrying) and (_joins_other_axes(expr, qualname) or not any(
                    self._mentions_loop_rows(p, scope, loop) for p in parts if p not in carrying))
        return False

    def _converted_element_keeps_rows(self, call: cst.Call, binding: Binding, loop: cst.For, depth: int) -> bool:
        """``x, y = jax.device_put((x, y), device)``: a conversion or hand-on of a tuple
        (jaxfacts.SHAPE_KEEPING_CONVERSIONS, BATCH_KEEPING_CALLS) keeps each element's rows."""
        qualname = self.model.qualified_name(call.func, binding.scope) or ""
        position = _unpacked_position(binding)
        first = call.args[0].value if call.args and call.args[0].keyword is None and not call.args[0].star else None
        if position is None or not isinstance(first, (cst.Tuple, cst.List)) or position >= len(first.elements) \
                or not (qualname in SHAPE_KEEPING_CONVERSIONS or BATCH_KEEPING_CALLS.get(qualname) == 0):
            return False
        return self._carries_loop_rows(first.elements[position].value, binding.scope, loop, depth + 1)

    def _helper_keeps_rows(self, call: cst.Call, binding: Binding, loop: cst.For, depth: int) -> bool:
        """``x, y = to_arrays(batch)`` with ``to_arrays`` a def of the module handed the loop's
        item, whose every return gives, at the name's position, that parameter's rows through
        row-keeping steps (``imgs, labels = batch; x = np.transpose(imgs.numpy(), (0, 2, 3, 1))``):
        jax-cnn-examples' ``_to_array``, a short torch batch stays short."""
        position = _unpacked_position(binding)
        helper = self.model.single_binding(call.func.value, binding.scope) if isinstance(call.func, cst.Name) else None
        if position is None or helper is None or helper.kind != "def" or not isinstance(helper.node, cst.FunctionDef):
            return False
        function = helper.node
        params = positional_params(function)
        carried = [params[i].name.value for i, arg in enumerate(a for a in call.args if a.keyword is None)
                   if i < len(params) and not arg.star and self._carries_loop_rows(arg.value, binding.scope, loop, depth + 1)]
        scope = self.model.scope_of.get(function)
        returns = [r.value for r in iter_nodes(function) if isinstance(r, cst.Return)]
        if not carried or scope is None or not returns:
            return False
        for value in returns:
            element = value.elements[position].value if isinstance(value, cst.Tuple) and position < len(value.elements) else None
            if element is None or not _holds_rows_of(self.model, element, carried[0], scope):
                return False
        return True

    def _mapped_sequence(self, call: cst.Call, scope: Scope) -> Optional[cst.BaseExpression]:
        """The batch that ``list(map(lambda t: t.numpy(), batch))``, ``map(np.asarray, batch)``
        or ``jax.tree.map(lambda t: t.numpy(), batch)`` converts element by element with a
        function that keeps each element's rows; None for any other call."""
        if isinstance(call.func, cst.Name) and call.func.value in ("list", "tuple") \
                and not self.model.lookup(call.func.value, scope) and len(call.args) == 1 \
                and isinstance(call.args[0].value, cst.Call):
            call = call.args[0].value
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        if len(positional) != 2 or len(call.args) != 2:
            return None
        is_map = isinstance(call.func, cst.Name) and call.func.value == "map" and not self.model.lookup("map", scope)
        tree_map = TREE_MAPS.get(self.model.qualified_name(call.func, scope) or "")
        if not (is_map or (tree_map is not None and tree_map[2] == 0)):
            return None
        function = positional[0]
        if isinstance(function, cst.Lambda):
            params = function.params.params
            if len(params) != 1 or function.params.star_arg is not cst.MaybeSentinel.DEFAULT \
                    and function.params.star_arg is not None:
                return None
            keeps = _holds_rows_of(self.model, function.body, params[0].name.value,
                                   self.model.scope_of.get(function, scope))
        else:
            keeps = self.model.qualified_name(function, scope) in SHAPE_KEEPING_CONVERSIONS
        return positional[1] if keeps else None

    def _mentions_loop_rows(self, expr: cst.BaseExpression, scope: Scope, loop: cst.For, depth: int = 0) -> bool:
        """Does ``expr`` depend on the loop's item at all, through names the loop body binds
        (``padding = np.zeros([B - n, ...])`` with ``n = len(images)``)?"""
        for name in name_loads(expr):
            if self._carries_loop_rows(name, scope, loop):
                return True
            bindings = self._bindings(name, scope)
            if depth < 3 and len(bindings) == 1 and bindings[0].kind == "assign" and self._inside(bindings[0], loop) \
                    and bindings[0].value is not None \
                    and self._mentions_loop_rows(bindings[0].value, bindings[0].scope, loop, depth + 1):
                return True
        return False

    def _batch_in_loop(self, name: cst.Name, loop, depth: int = 0):
        """The batch a name holds at its read, through rebindings in the loop that hand it on
        (``batch = {k: v[s:s + B] ...}; batch = shard(batch)``: jaxfacts.BATCH_KEEPING_CALLS) or
        convert it (``x = jnp.array(X[s:s + B])``: jaxfacts.SHAPE_KEEPING_CONVERSIONS)."""
        binding = self.flow.single(name, self.scope) or self._rows_kept(name)
        if binding is None or binding.kind != "assign" or not self._inside(binding, loop) or depth > 3:
            return None
        value = assigned(binding).value
        if isinstance(value, cst.Call):
            qualname = self.model.qualified_name(value.func, binding.scope) or ""
            position = BATCH_KEEPING_CALLS.get(qualname)
            positional = [a.value for a in value.args if a.keyword is None and not a.star]
            if qualname in SHAPE_KEEPING_CONVERSIONS and positional and isinstance(positional[0], cst.Subscript):
                return positional[0], binding.scope  # ``x_batch = jnp.array(X[s:s + B])``: the rows kept
            if position is not None and position < len(positional) and isinstance(positional[position], cst.Name):
                return self._batch_in_loop(positional[position], loop, depth + 1)
        return (value, binding.scope) if value is not None else None

    def _rows_kept(self, name: cst.Name) -> Optional[Binding]:
        """The one binding of ``name`` reaching its read besides rebindings that keep its rows
        (``x_batch = x_batch.reshape(-1, 1, 28, 28)`` under an ``if``): what the batch is."""
        bindings = self.flow.reaching(name, self.scope)
        others = [b for b in bindings if not (
            b.kind == "assign" and isinstance(b.value, cst.Call) and isinstance(b.value.func, cst.Attribute)
            and b.value.func.attr.value in SIZE_KEEPING_METHODS and isinstance(b.value.func.value, cst.Name)
            and b.value.func.value.value == name.value)]
        return others[0] if len(others) == 1 and len(bindings) > 1 else None

    def _batch_slice(self, expr, loop: cst.For) -> Optional[tuple[str, str]]:
        """``for s in range(0, len(x), B): f(x[s:s + B])``: the last batch is short unless
        len(x) is a multiple of B (not known here), and nothing in the loop skips it.  Also the
        columns of a dict or tuple batch (``{"x": X[s:s + B], ...}``, ``{k: v[s:s + B] for k, v
        in data.items()}``, whose array is ``data``'s columns)."""
        if isinstance(expr, (cst.Dict, cst.Tuple, cst.List)):
            return next((found for element in expr.elements if not isinstance(element, (cst.StarredElement, cst.StarredDictElement))
                         for found in [self._batch_slice(element.value, loop)] if found is not None), None)
        if isinstance(expr, cst.DictComp):
            columns = _comprehended_columns(expr)
            return self._row_slice(expr.value, loop, columns) if columns is not None else None
        return self._row_slice(expr, loop)

    def _while_batch_slice(self, expr, loop: cst.While) -> Optional[tuple[str, str]]:
        """``while s < len(x): f(x[s:s + B]); s += B``: the while form of the range batches;
        also ``e = min(n, s + B); f(x[s:e]); s = e`` up to ``n``, the array's length."""
        test = loop.test
        if not (isinstance(expr, cst.Subscript) and isinstance(test, cst.Comparison) and len(test.comparisons) == 1
                and isinstance(test.comparisons[0].operator, cst.LessThan) and isinstance(test.left, cst.Name)):
            return None
        counter, stop = test.left, test.comparisons[0].comparator
        if len(expr.slice) < 1 or not isinstance(expr.slice[0].slice, cst.Slice):
            return None
        piece = expr.slice[0].slice
        upper = piece.upper
        clipped = self._clipped_end(upper, loop, counter, stop)
        if clipped is not None:  # ``e = min(n, s + B)``: the end, clipped to the data
            upper = clipped
        if not (isinstance(piece.lower, cst.Name) and piece.lower.value == counter.value and piece.step is None
                and isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Add)
                and isinstance(upper.left, cst.Name) and upper.left.value == counter.value):
            return None
        step = upper.right
        stepped = [small for small in statements_in(loop) if isinstance(small, (cst.AugAssign, cst.Assign))
                   and _steps_counter(small, counter.value, step, piece.upper if clipped is not None else None)]
        binding = next((b for b in self._bindings(counter, self.scope) if b.node is stepped[0]), None) \
            if len(stepped) == 1 else None
        if binding is None or conditional_within(binding, loop):
            return None
        if isinstance(stop, cst.Name):
            if self._leading_dimension(expr.value, stop):
                stop = cst.Subscript(cst.Attribute(expr.value, cst.Name("shape")),
                                     [cst.SubscriptElement(cst.Index(cst.Integer("0")))])
            else:
                binding = self.flow.single(stop, self.scope)
                if binding is not None and binding.kind == "assign" and binding.value is not None:
                    stop = binding.value
        if not _length_of(stop, expr.value, self.model, self.scope) \
                or _known_multiple(expr.value, step, self.model, self.flow, self.scope) \
                or self._stop_multiple(test.comparisons[0].comparator, step):
            return None
        return (f"batches of `{_src(step)}` rows whose last one is shorter unless "
                f"len({_src(expr.value)}) is a multiple of `{_src(step)}`",
                "stop while a full batch is left (while s + B <= len(x)) or pad the last batch to B "
                "rows and mask the padding")

    def _clipped_end(self, end, loop: "cst.While | cst.For", counter: cst.Name,
                     stop: cst.BaseExpression) -> Optional[cst.BaseExpression]:
        """``s + B`` when ``end`` is a name bound in the loop to ``min(stop, s + B)`` (either
        order)."""
        if not isinstance(end, cst.Name):
            return None
        binding = self.flow.single(end, self.scope)
        value = binding.value if binding is not None and binding.kind == "assign" and self._inside(binding, loop) else None
        if not (builtin_call(value, "min", self.model, self.scope) and len(value.args) == 2):
            return None
        first, second = (a.value for a in value.args)
        for bound, summed in ((first, second), (second, first)):
            if _same_code(bound, stop) and isinstance(summed, cst.BinaryOperation) \
                    and isinstance(summed.operator, cst.Add) and _same_code(summed.left, counter):
                return summed
        return None

    def _leading_dimension(self, array: cst.BaseExpression, stop: cst.Name) -> bool:
        """``array`` is made here with ``stop`` as its leading dimension: ``x =
        jax.random.uniform(key, (n, 5))`` for ``while s < n``."""
        if not isinstance(array, cst.Name):
            return False
        binding = self.flow.single(array, self.scope)
        value = binding.value if binding is not None and binding.kind == "assign" else None
        shapes = [a.value for a in value.args if isinstance(a.value, (cst.Tuple, cst.List)) and a.value.elements] \
            if isinstance(value, cst.Call) else []
        return len(shapes) == 1 and _same_code(shapes[0].elements[0].value, stop)

    def _stop_multiple(self, stop: cst.BaseExpression, step: cst.BaseExpression) -> bool:
        """The loop's bound and the batch size are known ints and the one divides the other."""
        size, total = _int_value(step, self.flow, self.scope), _int_value(stop, self.flow, self.scope)
        return size is not None and total is not None and size > 0 and total % size == 0

    def _row_slice(self, expr, loop: cst.For, columns: Optional[tuple[str, cst.BaseExpression]] = None
                   ) -> Optional[tuple[str, str]]:
        """``x[s:s + B]`` (``columns``: ``v[s:s + B]`` with ``v`` a column of that dict), or
        ``x[idx]`` gathering with such a slice of a row order (``idx = perm[s:s + B]``)."""
        gathered = self._gathered_rows(expr, loop)
        if gathered is not None:
            return gathered
        sliced = self._loop_slice(expr, loop)
        if sliced is None:
            return self._counted_rows(expr, loop) if columns is None else None
        array, stop, step = sliced
        if columns is not None:  # ``v[s:s + B]`` for ``k, v in data.items()``: data's columns
            if not (isinstance(array, cst.Name) and array.value == columns[0]):
                return None
            array = columns[1]
        if _skips_short_batches(loop, step):
            return None
        counted = self._counted_stop(stop, array, step)
        if counted is not None:
            return counted
        stop = self._stop_value(stop)
        if not _length_of(stop, array, self.model, self.scope) \
                or _known_multiple(array, step, self.model, self.flow, self.scope):
            return None
        return self._ragged_slices(stop, array, step)

    def _counted_stop(self, stop: cst.BaseExpression, array: cst.BaseExpression, step: cst.BaseExpression
                      ) -> Optional[tuple[str, str]]:
        """``range(0, n, B)`` with ``n`` and ``B`` known ints that B does not divide
        (``n_samples = 1_000``, ``batch_size = 128``): the loop stops inside a batch, so the
        last slice is short, unless the array is known to hold the rows past ``n``."""
        size, total = _int_value(step, self.flow, self.scope), _int_value(stop, self.flow, self.scope)
        if size is None or total is None or size <= 0 or total <= 0 or total % size == 0:
            return None
        rows = known_length(self.model, self.flow, array, self.scope)
        if rows is not None and rows >= total - total % size + size:
            return None
        return (f"batches of `{_src(step)}` rows over `{_src(stop)}` = {total} rows, so the last one "
                f"has {total % size}",
                "drop the last partial batch (range(0, n - B + 1, B)) or pad it to B rows "
                "and mask the padding")

    def _counted_rows(self, expr, loop: cst.For) -> Optional[tuple[str, str]]:
        """``x[i * B:(i + 1) * B]`` in ``for i in range(count)``, the count of batches of len(x)
        with a last partial one (batches.counted_batches: ``len(x) // B + 1``,
        ``math.ceil(len(x) / B)``...): that batch is shorter, unless a rounded-up count meets
        an array of a known length that B divides."""
        if not (isinstance(expr, cst.Subscript) and expr.slice and isinstance(expr.slice[0].slice, cst.Slice)):
            return None
        container = self.scope.node if isinstance(self.scope.node, (cst.FunctionDef, cst.Module)) else None
        count = counted_batches(loop, container, outer_assignments(self.model, container)) \
            if container is not None else None
        if count is None or not counted_slice(expr.slice[0].slice, loop, count.size) \
                or not _length_of(self._stop_value(count.length), expr.value, self.model, self.scope):
            return None
        step = cst.parse_expression(count.size)
        if _skips_short_batches(loop, step):
            return None
        fix = f"count only full batches (len(x) // {count.size}) or pad the last batch to {count.size} rows and mask the padding"
        if count.past_full:
            return (f"batches of `{count.size}` rows counted one past the full ones "
                    f"(len({_src(expr.value)}) // {count.size} + 1), so the last is shorter, or empty "
                    f"when `{count.size}` divides the length", fix)
        if _known_multiple(expr.value, step, self.model, self.flow, self.scope):
            return None
        return (f"batches of `{count.size}` rows whose count is rounded up, so the last one is "
                f"shorter unless len({_src(expr.value)}) is a multiple of `{count.size}`", fix)

    def _ragged_slices(self, stop: cst.BaseExpression, array: cst.BaseExpression, step: cst.BaseExpression
                       ) -> tuple[str, str]:
        return (f"batches of `{_src(step)}` rows whose last one is shorter unless "
                f"len({_src(stop.args[0].value if builtin_call(stop, 'len', self.model, self.scope) else array)}) "
                f"is a multiple of `{_src(step)}`",
                "drop the last partial batch (range(0, len(x) - B + 1, B)) or pad it to B rows "
                "and mask the padding")

    def _loop_slice(self, expr, loop: cst.For) -> Optional[tuple[cst.BaseExpression, cst.BaseExpression, cst.BaseExpression]]:
        """(array, stop, step) of ``array[s:s + B]`` in ``for s in range(0, stop, B)`` (also
        ``tqdm(range(...))`` and ``trange(...)``)."""
        iterable, target = loop.iter, loop.target
        while isinstance(iterable, cst.Call) and iterable.args and iterable.args[0].keyword is None \
                and self.model.qualified_name(iterable.func, self.scope) in PASS_THROUGH:
            iterable = iterable.args[0].value
        if not isinstance(expr, cst.Subscript) or not isinstance(target, cst.Name) \
                or not (builtin_call(iterable, "range", self.model, self.scope) or isinstance(iterable, cst.Call)
                        and self.model.qualified_name(iterable.func, self.scope) in RANGES_WITH_PROGRESS) \
                or len(iterable.args) != 3 or any(a.keyword or a.star for a in iterable.args):  # type: ignore[attr-defined]
            return None
        _, stop, step = (a.value for a in iterable.args)  # type: ignore[attr-defined]
        if len(expr.slice) < 1 or not isinstance(expr.slice[0].slice, cst.Slice):
            return None
        piece = expr.slice[0].slice
        lower, upper = piece.lower, piece.upper
        clipped = self._clipped_end(upper, loop, target, stop)
        if clipped is not None:  # ``end = min(s + B, n)``: the end, clipped to the range's stop
            upper = clipped
        if not (isinstance(lower, cst.Name) and lower.value == target.value
                and isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Add)
                and isinstance(upper.left, cst.Name) and upper.left.value == target.value
                and _same_code(upper.right, step) and piece.step is None):
            return None
        return expr.value, stop, step

    def _stop_value(self, stop: cst.BaseExpression) -> cst.BaseExpression:
        """What a name bound once before the loop holds (``n = len(data)``); else ``stop``."""
        if isinstance(stop, cst.Name):
            binding = self.flow.single(stop, self.scope)
            if binding is not None and binding.kind == "assign" and binding.value is not None:
                return binding.value
        return stop

    def _gathered_rows(self, expr, loop: cst.For) -> Optional[tuple[str, str]]:
        """``x[idx]`` with ``idx = perm[s:s + B]`` (or the slice inline), ``perm`` a row order as
        long as the loop's range (jaxfacts.ROW_INDEX_ARRAYS: ``perm = random.permutation(key,
        jnp.arange(n))`` for ``range(0, n, B)``): the rows gathered come in batches whose last
        one is shorter."""
        if not (isinstance(expr, cst.Subscript) and len(expr.slice) == 1
                and isinstance(expr.slice[0].slice, cst.Index)):
            return None
        index = expr.slice[0].slice.value
        if isinstance(index, cst.Name):
            value = self._value_in_loop(index, self.scope, loop)
            index = value[0] if value is not None else index
        sliced = self._loop_slice(index, loop)
        if sliced is None:
            return None
        order, stop, step = sliced
        count = self._row_count(order)
        if not (_length_of(self._stop_value(stop), order, self.model, self.scope)
                or count is not None and any(_same_code(a, b) or _length_of(b, a, self.model, self.scope)
                                             for a in (count, self._stop_value(count))
                                             for b in (stop, self._stop_value(stop)))):
            return None
        size, total = _int_value(step, self.flow, self.scope), _int_value(count, self.flow, self.scope) \
            if count is not None else None
        if size and total is not None and total % size == 0 \
                or _known_multiple(expr.value, step, self.model, self.flow, self.scope) \
                or _skips_short_batches(loop, step):
            return None
        return self._ragged_slices(self._stop_value(stop), expr.value, step)

    def _row_count(self, order: cst.BaseExpression, depth: int = 0) -> Optional[cst.BaseExpression]:
        """What sets the length of the row order ``order`` (a name bound once to
        ``np.random.permutation(n)``, ``jax.random.permutation(key, jnp.arange(n))``...): the
        count ``n``, or the array whose rows it orders."""
        if depth > 3:
            return None
        value = order
        if isinstance(order, cst.Name):
            binding = self.flow.single(order, self.scope)
            value = binding.value if binding is not None and binding.kind == "assign" else None
        if not isinstance(value, cst.Call):
            return None
        position = ROW_INDEX_ARRAYS.get(self.model.qualified_name(value.func, self.scope) or "")
        positional = [a.value for a in value.args if a.keyword is None and not a.star]
        if position is None or position >= len(positional):
            return None
        return self._row_count(positional[position], depth + 1) or positional[position]

    # ------------------------------------------------------------------ dtypes
    def dtype(self, arg: cst.BaseExpression) -> Optional[tuple[str, str]]:
        for loop in self.loops:
            result = self._dtype_in(arg, self.scope, loop, depth=0)
            if result is not None:
                return result
        return None

    def _dtype_in(self, expr, scope: Scope, loop, depth: int) -> Optional[tuple[str, str]]:
        if isinstance(expr, cst.IfExp):
            kinds = {_literal_kind(expr.body, self.model, scope), _literal_kind(expr.orelse, self.model, scope)}
            if None not in kinds and len(kinds) == 2 \
                    and any(self.varying(n, scope, loop) for n in name_loads(expr.test)):
                return ("whose Python type alternates between " + " and ".join(sorted(kinds)),
                        "use one type for both branches (e.g. 1.0 and 0.5)")
            return None
        if isinstance(expr, cst.Name):
            mixed = self._mixed_loop_values(expr, scope, loop)
            if mixed is not None:
                return mixed
            promoted = self._int_then_float(expr, scope, loop) \
                or self._python_then_array(expr, scope, loop) or self._python_then_numpy(expr, scope, loop)
            if promoted is not None:
                return promoted
            value = self._value_in_loop(expr, scope, loop)
            if value is not None and depth < 2:
                return self._dtype_in(value[0], value[1], loop, depth + 1)
            return None
        if isinstance(expr, cst.Attribute) and depth < 2:  # ``cfg.scale = s`` ... ``f(x, cfg.scale)``
            written = self.iterations.attribute_value(expr, scope, loop)
            return self._dtype_in(written, scope, loop, depth + 1) if written is not None else None
        for node in _calls_in(expr):
            dtype_arg = _dtype_argument(node)
            if isinstance(dtype_arg, cst.Name) and self._dtype_loop(dtype_arg, scope, loop):
                return ("cast to a dtype taken from a list of dtypes",
                        "cast to one dtype, or accept one compile per dtype")
        return None

    def _loop_values(self, name: cst.Name, scope: Scope, loop) -> Optional[list[cst.BaseExpression]]:
        """The elements of ``for name in [a, b, ...]`` (``enumerate``, ``zip``, a list bound
        before the loop: values.loop_elements) when ``loop`` is that loop."""
        bindings = self._bindings(name, scope)
        if len(bindings) != 1 or bindings[0].kind != "loop-target":
            return None
        node = bindings[0].node
        if node is not loop and not (isinstance(loop, cst.BaseComp) and _comp_fors(loop, node)):
            return None
        return loop_elements(bindings[0], self.flow)

    def _mixed_loop_values(self, name: cst.Name, scope: Scope, loop) -> Optional[tuple[str, str]]:
        values = self._loop_values(name, scope, loop)
        if not values:
            return None
        kinds = {_literal_kind(v, self.model, scope) for v in values}
        if None in kinds or len(kinds) < 2:
            return None
        if "None" in kinds:
            return (f"taken from a list mixing {', '.join(sorted(kinds))} values (None is no array "
                    f"at all, and each other kind is its own dtype / weak type)", "give the None "
                    "case a value of the same dtype (or handle it outside the jitted function), and "
                    "convert the others to one dtype, e.g. jnp.asarray(v, jnp.float32)")
        return (f"taken from a list mixing {', '.join(sorted(kinds))} values (each is its own "
                f"dtype / weak type)", "convert the values to one dtype first, e.g. "
                "jnp.asarray(v, jnp.float32)")

    def _dtype_loop(self, name: cst.Name, scope: Scope, loop) -> bool:
        values = self._loop_values(name, scope, loop)
        if not values:
            return False
        dtypes = {_dtype_of(v, self.model, scope) for v in values}
        return None not in dtypes and len(dtypes) >= 2

    def _python_then_array(self, name: cst.Name, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """``s = 1.0`` before the loop, ``w, s = step(w, s)`` in it: a weakly typed Python float
        on the first call, the jitted function's float32 array after it (two compiles)."""
        bindings = self._bindings(name, scope)
        outside = [b for b in bindings if not self._inside(b, loop)]
        inside = [b for b in bindings if self._inside(b, loop)]
        if not (outside and inside and all(isinstance(b.node, cst.Assign) and self._jitted_array(b.node.value, b.scope)
                                           for b in inside)):
            return None
        if all(_is_float_literal(assigned(b).value) for b in outside):
            return ("a Python float on the first call (weak float32), then a float32 array from "
                    "the jitted result", f"start it as an array: {name.value} = jnp.asarray("
                    f"{_src(assigned(outside[0]).value)}, dtype=jnp.float32)")  # type: ignore[arg-type]
        types = self.types
        if all(_is_int_literal_binding(b) for b in outside) and all(
                (jc := types.calls.get(b.node.value)) is not None and jc.func is not None
                and types.returns_strong(jc.func, position=_unpacked_position(b)) for b in inside):
            # ``status = 0`` then ``status, idx = step(key, status, idx)``: weak int32, then
            # the step's strongly typed int32 (QuantEcon separation lecture); ``w = 1`` then
            # ``w -= lr * grad`` in the step: a float32 array
            start = assigned(outside[0]).value
            self.weak_starts[id(name)] = start
            floats = any(types.returns_float(types.calls[b.node.value].func, _unpacked_position(b)) for b in inside)
            dtype, literal = ("float32", f"{_src(start)}.0") if floats else ("int32", _src(start))
            return (f"the Python int `{_src(start)}` (weak int32) on the first call, then "
                    f"the jitted result, a strongly typed {dtype} array",
                    f"start it as an array: {name.value} = jnp.asarray({literal}, "
                    f"dtype=jnp.{dtype})")  # type: ignore[arg-type]
        # ``s = jnp.full((M,), s_init)`` of a Python number: a weakly typed array, which the
        # jitted step returns strongly typed (kesten PR 118, inventory PR 313)
        weak = {types.weak_array(b.value, b.scope) if isinstance(b.value, cst.Call) else None for b in outside}
        results = [types.calls.get(b.node.value) for b in inside]
        if len(weak) == 1 and None not in weak and all(jc is not None and jc.func is not None
                                                       and types.returns_strong(jc.func) for jc in results):
            kind = weak.pop()
            made = outside[0].value
            self.weak_starts[id(name)] = made
            return (f"`{_src(made)}`, a weakly typed {kind} array (a Python {kind}, no dtype), on the "
                    f"first call, then the jitted result, strongly typed",
                    f"give it a dtype: {_src(made.func)}(..., dtype=jnp.{'int32' if kind == 'int' else 'float32'})")
        return None

    def _python_then_numpy(self, name: cst.Name, scope: Scope, loop) -> Optional[tuple[str, str]]:
        """``eps`` a Python float before the loop (a literal, or a parameter every call gives
        one), kept one by ``eps *= 1.01`` in it, and set in it to a NumPy value (``eps =
        np.exp(np.mean(np.log(eps_list)))``): weak float32 on the first calls, strong after."""
        bindings = self._bindings(name, scope)
        outside = [b for b in bindings if not self._inside(b, loop)]
        inside = [b for b in bindings if self._inside(b, loop)]
        assigned_inside = [b for b in inside if not isinstance(b.node, cst.AugAssign)]
        if not outside or not assigned_inside:
            return None
        start = {self.types._bound(b, 0) for b in outside}
        if len(start) != 1 or None in start:
            return None
        start_kind, start_text = start.pop()
        if not start_kind.startswith("python") or any(
                not isinstance(b.node.value, (cst.Integer, cst.Float)) for b in inside if isinstance(b.node, cst.AugAssign)):
            return None
        later = [(self.types.kind(b.value, b.scope), b.value) for b in assigned_inside if b.value is not None]
        if len(later) != len(assigned_inside) or any(k is None or k[0] != "strong" for k, _ in later):
            return None
        (_, text), value = later[0]
        return (f"{start_text} before the loop, then `{_src(value, 40)}`, {text}, once the loop sets it",
                f"keep one kind: convert the NumPy value with float(...), or start `{name.value}` as "
                f"np.float32(...)")

    def _jitted_array(self, value: cst.BaseExpression, scope: Scope) -> bool:
        """A jitted call's result, or an array read from one: ``out.sum()`` (a jax.Array
        method: jaxfacts.ARRAY_METHODS) or ``out[0]`` of a name only a jitted call binds, also
        in arithmetic (``out.sum() / 4``)."""
        if value in self.jitted_results:
            return True
        if isinstance(value, cst.BinaryOperation):  # ``out.sum() / 4``: a strong array stays strong
            return self._jitted_array(value.left, scope) or self._jitted_array(value.right, scope)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and value.func.attr.value in ARRAY_METHODS:
            receiver = value.func.value
        elif isinstance(value, cst.Subscript):
            receiver = value.value
        else:
            return False
        bindings = self.flow.reaching(receiver, scope) if isinstance(receiver, cst.Name) else []
        return bool(bindings) and all(isinstance(b.node, cst.Assign) and b.node.value in self.jitted_results
                                      for b in bindings)

    def _int_then_float(self, name: cst.Name, scope: Scope, loop) -> Optional[tuple[str, str]]:
        bindings = self._bindings(name, scope)
        outside = [b for b in bindings if not self._inside(b, loop)]
        inside = [b for b in bindings if self._inside(b, loop)]
        if outside and inside and all(_is_int_literal_binding(b) for b in outside) \
                and all(_makes_float(b, self.model, self.flow) for b in inside):
            return ("a Python int before the loop that becomes a float inside it (weak int32, "
                    "then weak float32)", f"start it as a float ({name.value} = 1.0)")
        return None


# ---------------------------------------------------------------------------- helpers
def _unpacked_position(binding: Binding) -> Optional[int]:
    """``status`` in ``status, idx = step(...)``: 0; None for a plain ``name = ...``."""
    target = binding.node.targets[0].target if isinstance(binding.node, cst.Assign) and len(binding.node.targets) == 1 else None
    if isinstance(target, (cst.Tuple, cst.List)):
        return next((i for i, e in enumerate(target.elements)
                     if isinstance(e.value, cst.Name) and e.value.value == binding.name), None)
    return None


def _counts(binding: Binding, model: SemanticModel) -> bool:
    """``for i in range(...)`` / ``for i, x in enumerate(...)``: i is an int counter
    (values.counts)."""
    return counts(binding, model)


def _is_conversion(value: Optional[cst.BaseExpression], model: SemanticModel, scope: Scope) -> bool:
    """``int(n)`` / ``n.item()``: the same number as a Python int (a size read from an array)."""
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    if isinstance(func, cst.Name):
        return func.value in ("int", "round") and not model.lookup(func.value, scope) and len(value.args) == 1
    return isinstance(func, cst.Attribute) and func.attr.value in ("item", "tolist") and not value.args


def _comp_fors(comp: cst.BaseComp, node: cst.CSTNode) -> bool:
    current = comp.for_in  # type: ignore[attr-defined]
    while current is not None:
        if current is node:
            return True
        current = current.inner_for_in
    return False


def _combine(left: Poly, right: Poly, operator: cst.BaseBinaryOp) -> Poly:
    """Two polynomials added, subtracted or multiplied."""
    result: Poly = {}
    if isinstance(operator, cst.Multiply):
        for t1, c1 in left.items():
            for t2, c2 in right.items():
                term = tuple(sorted(t1 + t2))
                result[term] = result.get(term, 0) + c1 * c2
        return result
    sign = 1 if isinstance(operator, cst.Add) else -1
    result = dict(left)
    for term, coeff in right.items():
        result[term] = result.get(term, 0) + sign * coeff
    return result


def _poly(expr: cst.BaseExpression, known: Callable[[cst.Name], bool]) -> Optional[Poly]:
    """``expr`` as a polynomial over names with integer coefficients, or None."""
    if isinstance(expr, cst.Integer):
        return {(): int(expr.value, 0)}
    if isinstance(expr, cst.Name):
        return {(expr.value,): 1} if known(expr) else None
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        inner = _poly(expr.expression, known)
        return {k: -v for k, v in inner.items()} if inner is not None else None
    if isinstance(expr, cst.BinaryOperation):
        left, right = _poly(expr.left, known), _poly(expr.right, known)
        if left is None or right is None:
            return None
        if isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply)):
            return _combine(left, right, expr.operator)
    return None


def _is_mask(expr: cst.BaseExpression, model: SemanticModel, flow: ValueFlow, scope: Scope,
             depth: int = 0) -> bool:
    if isinstance(expr, cst.Comparison):
        return not any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn))
                       for c in expr.comparisons)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.BitInvert):
        return _is_mask(expr.expression, model, flow, scope, depth)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.BitAnd, cst.BitOr)):
        return _is_mask(expr.left, model, flow, scope, depth) and _is_mask(expr.right, model, flow, scope, depth)
    if isinstance(expr, cst.Name) and depth < 2:
        binding = flow.single(expr, scope)
        if binding is not None and binding.kind == "assign" and binding.value is not None:
            return _is_mask(binding.value, model, flow, binding.scope, depth + 1)
    return False


def _window_crop(binding: Binding, name: str) -> bool:
    """``context = context[:, -window:]``: the name cropped to its last entries."""
    value = binding.value if binding.kind == "assign" else None
    if not (isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and value.value.value == name):
        return False
    pieces = [element.slice for element in value.slice]
    return all(isinstance(p, cst.Slice) and p.upper is None and p.step is None for p in pieces) and any(
        isinstance(p.lower, cst.UnaryOperation) and isinstance(p.lower.operator, cst.Minus) for p in pieces)  # type: ignore[union-attr]


# Python calls that return a new list (``tokens = prompt.split()``, ``ids = x.tolist()``): a
# list that starts there and is appended to in the loop grows without bound (a deque made
# with ``maxlen`` does not, so an unknown starting value is not taken for one)
LIST_MAKING_BUILTINS = frozenset({"list", "sorted"})
LIST_MAKING_METHODS = frozenset({"split", "rsplit", "splitlines", "tolist"})


# Methods whose result has the receiver's rows: a batch converted by one is still the batch
ROW_KEEPING_METHODS = SIZE_KEEPING_METHODS | SHAPE_KEEPING_METHODS | TENSOR_CONVERSION_METHODS


def _holds_rows_of(model: SemanticModel, expr: cst.BaseExpression, param: str, scope: Scope,
                   depth: int = 0) -> bool:
    """In the function (or lambda) whose scope is ``scope``, ``expr`` holds the rows of its
    parameter ``param`` through names it binds (also unpacking the parameter, ``imgs, labels
    = batch``) and steps that keep the batch axis: row-keeping and size-keeping methods
    (``t.cpu().numpy()``), conversions (``np.asarray(t)``), axis-keeping calls, arithmetic.  A name rebound under an ``if`` must keep them on every binding, unless that
    ``if`` measures nothing (``if resize_to is not None:``): only a test of a length or shape
    can be the short batch's fix."""
    if depth > 6:
        return False
    if isinstance(expr, cst.Name):
        if expr.value == param:
            return True
        bindings = [b for b in model.lookup(expr.value, scope) if b.scope is scope]
        if not bindings or any(b.kind != "assign" or not isinstance(b.node, cst.Assign) for b in bindings):
            return False
        kept = [b for b in bindings if _bound_rows_of(model, b, param, scope, depth)]
        return bool(kept) and all(b in kept or not _measuring_if(b) for b in bindings)
    if isinstance(expr, cst.BinaryOperation):
        return _holds_rows_of(model, expr.left, param, scope, depth + 1) \
            or _holds_rows_of(model, expr.right, param, scope, depth + 1)
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Attribute) and func.attr.value in ROW_KEEPING_METHODS:
            return _holds_rows_of(model, func.value, param, scope, depth + 1)
        positional = [a.value for a in expr.args if a.keyword is None and not a.star]
        if positional and model.qualified_name(func, scope) in SHAPE_KEEPING_CONVERSIONS | AXES_KEEPING_CALLS:
            return _holds_rows_of(model, positional[0], param, scope, depth + 1)
    return False


def _bound_rows_of(model: SemanticModel, binding: Binding, param: str, scope: Scope, depth: int) -> bool:
    """The assignment ``binding`` gives its name the parameter's rows: a value holding them,
    or an element of the parameter itself unpacked (``imgs, labels = batch``)."""
    if binding.value is not None:
        return _holds_rows_of(model, binding.value, param, scope, depth + 1)
    unpacked = binding.node.value  # type: ignore[attr-defined]
    return isinstance(unpacked, cst.Name) and unpacked.value == param


def _measuring_if(binding: Binding) -> bool:
    """The binding sits under an ``if`` whose test reads a length or a shape."""
    for frame in binding.frame or ():
        if isinstance(frame.node, cst.If):
            test = frame.node.test
            return any(isinstance(n, cst.Attribute) and n.attr.value in ("shape", "size")
                       or isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == "len"
                       for n in iter_nodes(test))
    return False


def _is_list_value(binding: Binding) -> bool:
    value = binding.value
    if binding.kind != "assign" or not isinstance(binding.node, cst.Assign):
        return False
    if isinstance(value, (cst.List, cst.ListComp)):
        return True
    if not isinstance(value, cst.Call):
        return False
    if isinstance(value.func, cst.Name):
        return value.func.value in LIST_MAKING_BUILTINS
    return isinstance(value.func, cst.Attribute) and value.func.attr.value in LIST_MAKING_METHODS


def _is_tuple_value(binding: Binding) -> bool:
    """``acc = ()`` / ``acc = tuple()``: an empty tuple to accumulate into."""
    value = binding.value
    if binding.kind != "assign" or not isinstance(binding.node, cst.Assign):
        return False
    return (isinstance(value, cst.Tuple) and not value.elements) or (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
        and value.func.value == "tuple" and not value.args)


def _is_list_extension(binding: Binding) -> bool:
    """``xs += [x]`` (an AugAssign binding inside the loop)."""
    node = binding.node
    return isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign) \
        and isinstance(node.value, (cst.List, cst.ListComp, cst.Tuple))


def _added_lists(expr: cst.BaseExpression) -> list[cst.Name]:
    """``xs`` -> [xs]; ``[a] + xs + ys`` -> [xs, ys] (the names a list sum is made of). A
    comprehension over a list keeps its length (``[word_to_id[t] for t in tokens]`` -> [tokens])
    and a list of one such list adds a batch axis (``[[vocab[t] for t in tokens]]`` -> [tokens])."""
    if isinstance(expr, cst.Name):
        return [expr]
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return _added_lists(expr.left) + _added_lists(expr.right)
    if isinstance(expr, cst.ListComp) and not expr.for_in.ifs and expr.for_in.inner_for_in is None:
        return _added_lists(expr.for_in.iter)
    if isinstance(expr, cst.List) and len(expr.elements) == 1 \
            and isinstance(expr.elements[0], cst.Element):
        return _added_lists(expr.elements[0].value)
    return []


def _padded_by_length_of(expr: cst.BaseExpression, name: str) -> bool:
    """A list sum with a padding term that takes off ``len(name)`` (``tokens + generated + [0] *
    (maxlen - len(tokens) - len(generated))``): as long as ``maxlen`` whatever ``name`` holds."""
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return _padded_by_length_of(expr.left, name) or _padded_by_length_of(expr.right, name)
    if isinstance(expr, cst.List) and len(expr.elements) == 1 and isinstance(expr.elements[0], cst.Element):
        return _padded_by_length_of(expr.elements[0].value, name)  # ``[ids + [0] * (n - len(ids))]``
    if not (isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply)):
        return False
    count = expr.right if isinstance(expr.left, cst.List) else expr.left if isinstance(expr.right, cst.List) else None
    return count is not None and _subtracts_length(count, name)


def _subtracts_length(expr: cst.BaseExpression, name: str) -> bool:
    """``n - len(name)`` / ``n - len(a) - len(name)``."""
    if not (isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Subtract)):
        return False
    right = expr.right
    if isinstance(right, cst.Call) and isinstance(right.func, cst.Name) and right.func.value == "len" \
            and len(right.args) == 1 and isinstance(right.args[0].value, cst.Name) and right.args[0].value.value == name:
        return True
    return _subtracts_length(expr.left, name)


def _list_growth(loop: cst.CSTNode, name: str, bindings: list[Binding], model: SemanticModel) -> bool:
    """The loop grows the list (append/extend/insert/+=) and never shrinks it."""
    grows = shrinks = False

    class _Uses(Walker):
        def visit_Call(self, call: cst.Call) -> None:
            nonlocal grows, shrinks
            func = call.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
                    and func.value.value == name and _same(func.value, call):
                if func.attr.value in GROW_METHODS:
                    grows = True
                elif func.attr.value in SHRINK_METHODS:
                    shrinks = True

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            nonlocal grows
            if isinstance(node.target, cst.Name) and node.target.value == name:
                grows = grows or isinstance(node.operator, cst.AddAssign)

        def visit_Del(self, node: cst.Del) -> None:
            nonlocal shrinks
            shrinks = shrinks or any(n.value == name for n in name_loads(node.target))

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            nonlocal shrinks
            if isinstance(node.target, cst.Subscript) and isinstance(node.target.value, cst.Name) \
                    and node.target.value.value == name:
                shrinks = True  # xs[:] = ... / xs[k] = ...: not a plain accumulator

    def _same(name_node: cst.Name, call: cst.Call) -> bool:
        site = model.call_site_of.get(call)
        if site is None:
            return False
        found = model.lookup(name_node.value, site.frame.scope)
        return bool(found) and found[0].scope is bindings[0].scope  # the same variable

    body = loop.body if isinstance(loop, (cst.For, cst.While)) else loop
    _Uses().walk(body)
    return grows and not shrinks


def _literal_kind(expr: cst.BaseExpression, model: SemanticModel, scope: Scope) -> Optional[str]:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    if isinstance(expr, cst.Integer):
        return "int"
    if isinstance(expr, cst.Float):
        return "float"
    if isinstance(expr, cst.Name) and expr.value in ("True", "False"):
        return "bool"
    if isinstance(expr, cst.Name) and expr.value == "None":
        return "None"  # no leaf at all: another pytree structure
    if isinstance(expr, cst.Call):
        dtype = _dtype_of(expr.func, model, scope)
        if dtype is not None:
            return dtype
    return None


def _dtype_of(expr: cst.BaseExpression, model: SemanticModel, scope: Scope) -> Optional[str]:
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if value in DTYPE_NAMES else None
    qualname = model.qualified_name(expr, scope) or ""
    module, _, name = qualname.rpartition(".")
    if module in ARRAY_MODULES and name in DTYPE_NAMES:
        return name
    return None


def _calls_in(expr: cst.BaseExpression) -> list[cst.Call]:
    found: list[cst.Call] = []

    class _Calls(Walker):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

        def visit_Lambda(self, node) -> bool:
            return False

    _Calls().walk(expr)
    return found


def _dtype_argument(call: cst.Call) -> Optional[cst.BaseExpression]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "dtype":
            return arg.value
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in ("astype", "view") \
            and call.args and call.args[0].keyword is None:
        return call.args[0].value
    return None


def _is_int_literal_binding(binding: Binding) -> bool:
    """``n = 1`` / ``w, b = 1, 1``: the name is bound to an int literal."""
    if binding.kind != "assign" or not isinstance(binding.node, cst.Assign):
        return False
    value = assigned(binding).value
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value = value.expression
    return isinstance(value, cst.Integer)


def _makes_float(binding: Binding, model: SemanticModel, flow: ValueFlow) -> bool:
    """The write makes ``binding.name`` a Python float (values.python_number), whatever Python
    number it held: ``eps /= 2``, ``eps *= decay`` of a float ``decay``, ``eps = max(eps *
    0.99, 0.05)``."""
    node = binding.node
    def itself(expr: cst.BaseExpression) -> bool:
        return isinstance(expr, cst.Name) and expr.value == binding.name
    if isinstance(node, cst.AugAssign):
        return isinstance(node.operator, cst.DivideAssign) or python_number(
            model, flow, node.value, binding.scope, itself) == "float"
    if binding.kind != "assign" or not isinstance(node, cst.Assign) or binding.value is None:
        return False
    return python_number(model, flow, binding.value, binding.scope, itself) == "float"


def _replays_earlier_loop(model: SemanticModel, site: CallSite, loop: cst.CSTNode) -> bool:
    """The same loop, statement for statement, ran before in this function or module (a
    notebook timing a jitted function after warming it up): every shape it makes is already
    compiled."""
    if not isinstance(loop, (cst.For, cst.While)):
        return False
    outer = next((frame.node for frame in site.frame if isinstance(frame.node, cst.FunctionDef)), model.module)
    for node in iter_nodes(outer):
        if node is loop:
            return False
        if isinstance(node, type(loop)) and _same_statement(model, node, loop):
            return True
    return False


def _same_statement(model: SemanticModel, a: cst.CSTNode, b: cst.CSTNode) -> bool:
    """The same code, comments and layout aside."""
    def tree(node: cst.CSTNode) -> Optional[str]:
        try:
            return ast.dump(ast.parse(textwrap.dedent(model.module.code_for_node(node))))
        except SyntaxError:
            return None
    return tree(a) is not None and tree(a) == tree(b)


def _same_code(a: cst.CSTNode, b: cst.CSTNode) -> bool:
    return _src(a, 200) == _src(b, 200)


def _steps_counter(statement: cst.CSTNode, counter: str, step: cst.BaseExpression,
                   end: Optional[cst.BaseExpression]) -> bool:
    """``s += B``, or ``s = e`` for the batch's end ``e`` (``end``, when it is clipped)."""
    if isinstance(statement, cst.AugAssign):
        return isinstance(statement.operator, cst.AddAssign) and isinstance(statement.target, cst.Name) \
            and statement.target.value == counter and _same_code(statement.value, step)
    return end is not None and isinstance(statement, cst.Assign) and len(statement.targets) == 1 \
        and isinstance(statement.targets[0].target, cst.Name) and statement.targets[0].target.value == counter \
        and _same_code(statement.value, end)


def _length_of(stop: cst.BaseExpression, array: cst.BaseExpression, model: SemanticModel,
               scope: Scope) -> bool:
    """``len(x)`` / ``x.shape[0]`` of the sliced array, or of another column of the same dict
    (``len(data["y"])`` for ``data["x"][s:s + B]``, or for the columns of ``data``)."""
    if builtin_call(stop, "len", model, scope) and len(stop.args) == 1:  # type: ignore[attr-defined]
        return _same_rows(stop.args[0].value, array)  # type: ignore[attr-defined]
    if isinstance(stop, cst.Subscript) and isinstance(stop.value, cst.Attribute) \
            and stop.value.attr.value == "shape" and _same_rows(stop.value.value, array) \
            and len(stop.slice) == 1 and isinstance(stop.slice[0].slice, cst.Index):
        index = stop.slice[0].slice.value
        return isinstance(index, cst.Integer) and index.evaluated_value == 0
    return False


def _same_rows(measured: cst.BaseExpression, array: cst.BaseExpression) -> bool:
    """``measured`` is ``array``, or a column (``data["y"]``) of the dict ``array`` is, or is a
    column of: columns of one dataset have as many rows."""
    return _same_code(measured, array) or _same_code(_dataset_of(measured), _dataset_of(array))


def _dataset_of(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``data`` for the column ``data["x"]``; else the expression itself."""
    if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) \
            and isinstance(expr.slice[0].slice.value, cst.SimpleString):
        return expr.value
    return expr


def _comprehended_columns(comp: cst.DictComp) -> Optional[tuple[str, cst.BaseExpression]]:
    """(the value's name, the dict) of ``{k: v[...] for k, v in data.items()}``."""
    loop = comp.for_in
    if loop.inner_for_in is not None or loop.ifs or not isinstance(loop.target, cst.Tuple) \
            or len(loop.target.elements) != 2 or not isinstance(loop.target.elements[1].value, cst.Name):
        return None
    source = loop.iter
    if not (isinstance(source, cst.Call) and isinstance(source.func, cst.Attribute)
            and source.func.attr.value == "items" and not source.args):
        return None
    return loop.target.elements[1].value.value, source.func.value


def _known_multiple(array: cst.BaseExpression, step: cst.BaseExpression, model: SemanticModel,
                    flow: ValueFlow, scope: Scope) -> bool:
    """The array is made with a literal length (``np.zeros((12, 3))``) and the batch size is a
    literal that divides it: every batch is full."""
    size = _int_value(step, flow, scope)
    if not isinstance(array, cst.Name) or size is None or size <= 0:
        return False
    binding = flow.single(array, scope)
    value = binding.value if binding is not None and binding.kind == "assign" else None
    if not isinstance(value, cst.Call) or not value.args:
        return False
    qualname = model.qualified_name(value.func, scope) or ""
    module, _, function = qualname.rpartition(".")
    if module not in ARRAY_MODULES or function not in SIZED_SHAPE_ARG0 | {"arange"}:
        return False
    first = value.args[0].value
    if isinstance(first, (cst.Tuple, cst.List)) and first.elements:
        first = first.elements[0].value
    length = _int_value(first, flow, scope)
    return length is not None and length % size == 0


def _int_value(expr: cst.BaseExpression, flow: ValueFlow, scope: Scope) -> Optional[int]:
    if isinstance(expr, cst.Integer):
        return int(expr.evaluated_value)
    if isinstance(expr, cst.Name):
        binding = flow.single(expr, scope)
        if binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Integer):
            return int(binding.value.evaluated_value)
    return None


def _skips_short_batches(loop: cst.For, step: cst.BaseExpression) -> bool:
    """An ``if`` in the loop that compares a length or shape with the batch size (drop_last)."""
    step_code = _src(step, 200)
    for node in _walk(loop.body):
        if isinstance(node, (cst.If, cst.IfExp)):
            test = _src(node.test, 400)
            if step_code in test and ("len(" in test or ".shape" in test) and guard_acts(node):
                return True
    return False


def _walk(node: cst.CSTNode):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def _int_literal(expr: Optional[cst.BaseExpression]) -> Optional[int]:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        inner = _int_literal(expr.expression)
        return -inner if inner is not None else None
    return int(expr.evaluated_value) if isinstance(expr, cst.Integer) else None


def _positive(expr: Optional[cst.BaseExpression]) -> bool:
    value = _int_literal(expr)
    return value is not None and value > 0


def _negative(expr: Optional[cst.BaseExpression]) -> bool:
    value = _int_literal(expr)
    return value is not None and value < 0


def _length_minus(expr: Optional[cst.BaseExpression], name: str) -> bool:
    """``len(x) - 1`` / ``x.shape[0] - k`` of ``x`` itself."""
    if not (isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Subtract)):
        return False
    left = _src(expr.left, 200)
    return left in (f"len({name})", f"{name}.shape[0]") and not _negative(expr.right) \
        and _int_literal(expr.right) != 0


def _is_float_literal(expr: Optional[cst.BaseExpression]) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, cst.Float)
