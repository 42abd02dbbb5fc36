"""Generators that batch their data (JIT504): whether a generator function, or the ``__iter__``
of a hand-written loader class, slices its data up to its length without dropping the shorter
last batch.  Syntax only (libcst defs and classes): used by rules/_loaders.py for a generator or
loader class of the linted module, and by project.py to tell other modules which of a module's
generators and loader classes are ragged (ModuleSummary.ragged_generators)."""

from __future__ import annotations

from typing import Callable, Iterator, NamedTuple, Optional

import libcst as cst

from jitlint.jaxfacts import SIZE_KEEPING_METHODS
from jitlint.walk import children, own_nodes, source_text


class RaggedLoop(NamedTuple):
    loop: cst.CSTNode  # the loop (or comprehension) that batches, or a loader's ``__next__``
    size: str  # the batch size's code
    guard: Optional[cst.CSTNode]  # the ``if`` that drops a short batch, or None
    # how the last batch comes out short: "sliced" (up to the end), "remainder" (the leftover
    # after a collecting loop: yields_remainder) or "next" (next_slices_to_end)
    way: str = "sliced"


# What a name not assigned in a generator is bound to around it: the assignment (``n = len(x)``,
# ``full, rest = divmod(n, B)``), or None.  rules/_loaders.py answers it with the module's scopes.
OuterAssignment = Callable[[str], Optional[cst.Assign]]


def ragged_loop(generator: cst.FunctionDef, lengths: frozenset[str] = frozenset(),
                outer: Optional[OuterAssignment] = None, parameter_lengths: bool = False) -> Optional[RaggedLoop]:
    """(the loop, the batch size's code, the ``if`` that drops a short batch or None) of the
    first loop of a generator (a def that yields) that slices its data up to the end, or of the
    comprehension a def returns (``return [(x[i:i + 32], y[i:i + 32]) for i in range(0, n, 32)]``).
    ``lengths``: attributes (``self.n``) that hold the data's length (loader_lengths);
    ``outer``: the assignments of names the generator reads from around it;
    ``parameter_lengths``: a loop may stop at a parameter of the def (``range(0, n, B)``), for
    a caller that judges the length each call passes (stop_parameter)."""
    if any(isinstance(node, cst.Yield) for node in own_nodes(_body(generator))):
        loops = [n for n in own_nodes(_body(generator)) if isinstance(n, (cst.For, cst.While))]
    else:
        loops = [n.value for n in own_nodes(_body(generator)) if isinstance(n, cst.Return)
                 and isinstance(n.value, (cst.ListComp, cst.GeneratorExp)) and n.value.for_in.inner_for_in is None]
    for loop in loops:
        found = _to_end(loop, generator, lengths, outer, parameter_lengths)
        if found is not None:
            return found
    for loop in loops:
        size = yields_remainder(loop, generator)
        if size is not None:
            return RaggedLoop(loop, size, None, "remainder")
    return None


def _to_end(loop: cst.CSTNode, container: "cst.FunctionDef | cst.Module", lengths: frozenset[str] = frozenset(),
            outer: Optional[OuterAssignment] = None, parameter_lengths: bool = False) -> Optional[RaggedLoop]:
    """The RaggedLoop of a loop that slices its data up to the end (sliced_to_end) or counts
    batches up to the partial one (counted_to_end)."""
    size = sliced_to_end(loop, container, lengths, parameter_lengths)
    way = "sliced"
    if size is None:
        counted = counted_to_end(loop, container, outer)
        if counted is None:
            return None
        size, way = counted.size, "past" if counted.past_full else "counted"
    return RaggedLoop(loop, size, short_batch_guard(loop, size) or flag_bounded_stop(loop, container), way)


def collected_to_end(container: "cst.FunctionDef | cst.Module", name: str,
                     outer: Optional[OuterAssignment] = None) -> Optional[RaggedLoop]:
    """The RaggedLoop of a loop of ``container`` that appends a batch to the list ``name`` on
    each step and slices its data up to the end (``for s in range(0, n, B): batches.append(
    x[s:s + B])``): the list's last batch is the short remainder."""
    for loop in own_nodes(_body(container)):
        if isinstance(loop, cst.For) and any(
                isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                and node.func.attr.value == "append" and is_name(node.func.value, name) for node in _walk(loop.body)):
            found = _to_end(loop, container, outer=outer)
            if found is not None:
                return found
    return None


def _body(container: "cst.FunctionDef | cst.Module") -> cst.CSTNode:
    """What to walk for a def's own statements, or a module's."""
    return container.body if isinstance(container, cst.FunctionDef) else container


def yields_remainder(loop: cst.CSTNode, generator: cst.FunctionDef) -> Optional[str]:
    """The batch size (its code) when the loop collects items into a list, yields it whenever
    it holds a batch (``if len(batch_images) == self.batch_size: yield np.stack(batch_images)``)
    and the generator yields what is left after the loop (``if batch_images: yield ...``): the
    last batch is the remainder, shorter unless the data divides evenly."""
    for node in _walk(loop):
        if not (isinstance(node, cst.If) and isinstance(node.test, cst.Comparison)
                and len(node.test.comparisons) == 1
                and isinstance(node.test.comparisons[0].operator, (cst.Equal, cst.GreaterThanEqual))
                and _builtin(node.test.left, "len") and len(node.test.left.args) == 1  # type: ignore[attr-defined]
                and isinstance(node.test.left.args[0].value, cst.Name)):  # type: ignore[attr-defined]
            continue
        buffer = node.test.left.args[0].value.value  # type: ignore[attr-defined]
        size = src(node.test.comparisons[0].comparator, 200)
        if not _yields(node.body, buffer):
            continue
        for statement in own_nodes(_body(generator)):
            if any(inner is statement for inner in _walk(loop)):
                continue
            if isinstance(statement, cst.If) and size not in src(statement.test, 400) \
                    and _yields(statement.body, buffer):
                return size  # ``if batch: yield batch`` after the loop
            if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Yield) \
                    and _yields(statement, buffer) and not _guarded_in(generator, statement):
                return size  # ``yield batch`` after the loop
    return None


def _yields(node: cst.CSTNode, buffer: str) -> bool:
    return any(isinstance(inner, cst.Yield) and inner.value is not None
               and any(is_name(name, buffer) for name in _walk(inner.value)) for inner in _walk(node))


def _guarded_in(generator: cst.FunctionDef, statement: cst.CSTNode) -> bool:
    """``statement`` sits under an ``if`` or a loop of the generator."""
    return any(isinstance(node, (cst.If, cst.For, cst.While)) and node is not statement
               and any(inner is statement for inner in _walk(node)) for node in own_nodes(_body(generator)))


def _loop_parts(loop: cst.CSTNode) -> Optional[tuple[cst.BaseAssignTargetExpression, cst.BaseExpression, cst.CSTNode]]:
    """(target, iterable, body) of a ``for`` statement or of a one-``for`` comprehension (its
    element is the body)."""
    if isinstance(loop, cst.For):
        return loop.target, loop.iter, loop.body
    if isinstance(loop, (cst.ListComp, cst.GeneratorExp)):
        return loop.for_in.target, loop.for_in.iter, loop.elt
    return None


def stop_parameter(loop: cst.CSTNode, generator: cst.FunctionDef) -> Optional[str]:
    """The parameter of ``generator`` that a ``range(a, n, B)`` loop stops at, if it does."""
    parts = _loop_parts(loop)
    stop = parts[1].args[1].value if parts is not None and _builtin(parts[1], "range") \
        and len(parts[1].args) == 3 else None  # type: ignore[attr-defined]
    return stop.value if isinstance(stop, cst.Name) and stop.value in _parameter_names(generator) else None


def _parameter_names(function: cst.FunctionDef) -> set[str]:
    params = function.params
    return {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}


class BatchCount(NamedTuple):
    """A loop's count of batches that includes a last, partial one."""
    size: str  # the batch size's code
    length: cst.BaseExpression  # the data length counted
    # ``n // B + 1``: one batch past the full ones, so the last is shorter, or empty when B
    # divides n; no length makes it even (the rounded-up counts are even when B divides n)
    past_full: bool = False


def counted_batches(loop: cst.CSTNode, container: "cst.FunctionDef | cst.Module",
                    outer: Optional[OuterAssignment] = None) -> Optional[BatchCount]:
    """The count of ``for i in range(count)`` when it is a number of batches of a data length
    with a last partial one (_ceiling_count)."""
    parts = _loop_parts(loop)
    if parts is None:
        return None
    target, iterable, _ = parts
    if not (isinstance(target, cst.Name) and _builtin(iterable, "range") and len(iterable.args) == 1):  # type: ignore[attr-defined]
        return None
    return _ceiling_count(iterable.args[0].value, container, outer)  # type: ignore[attr-defined]


def counted_slice(piece: cst.Slice, loop: cst.CSTNode, size: str) -> bool:
    """``x[i * B:(i + 1) * B]`` (or ``x[i * B:i * B + B]``, the end clipped to the data by
    ``min(..., n)``) for ``for i in range(...)``, also through names the loop binds once:
    ``start = i * B; end = start + B; x[start:end]``."""
    parts = _loop_parts(loop)
    if parts is None or not isinstance(parts[0], cst.Name) or piece.step is not None:
        return False
    counter, body = parts[0].value, parts[2]

    def bound(expr: Optional[cst.BaseExpression]) -> Optional[cst.BaseExpression]:
        """What a name holds, the one assignment in the loop not under an ``if`` (an ``if``
        that clamps the end to the data, ``if end > len(x): end = len(x)``, keeps batches
        short: short_batch_guard judges whether it drops one)."""
        if isinstance(expr, cst.Name):
            clamps = [n for node in _walk(body) if isinstance(node, cst.If) for n in _walk(node.body)]
            values = [n.value for n in _walk(body) if isinstance(n, cst.Assign) and len(n.targets) == 1
                      and is_name(n.targets[0].target, expr.value) and not any(n is c for c in clamps)]
            return values[0] if len(values) == 1 else expr
        return expr

    low, high = bound(piece.lower), bound(piece.upper)
    # ``end = min((i + 1) * B, n)``: clipping to the data keeps the last batch short, as
    # slicing past the end does
    high = next((o for o in _clipped(high) or () if isinstance(o, cst.BinaryOperation)), high)
    if not _times(low, counter, size) or not isinstance(high, cst.BinaryOperation):
        return False
    if isinstance(high.operator, cst.Multiply):  # ``(i + 1) * B``
        return any(_plus_one(side, counter) for side in (high.left, high.right)) \
            and any(src(side) == size for side in (high.left, high.right))
    if isinstance(high.operator, cst.Add) and src(high.right) == size:  # ``start + B``, ``i * B + B``
        return src(high.left) in (src(piece.lower), src(low))
    return False


def counted_to_end(loop: cst.CSTNode, generator: "cst.FunctionDef | cst.Module",
                   outer: Optional[OuterAssignment] = None) -> Optional[BatchCount]:
    """The count when ``loop`` counts batches up to one past the last full one and slices
    batch ``i`` as ``x[i * B:(i + 1) * B]``: ``for i in range(num_batches)`` with
    ``num_batches = full + bool(rest)`` of ``full, rest = divmod(len(x), B)`` (JAX's own MNIST
    example), ``math.ceil(n / B)``, ``-(-n // B)`` or ``n // B + 1``."""
    counted = counted_batches(loop, generator, outer)
    if counted is None:
        return None
    parts = _loop_parts(loop)
    return counted if any(counted_slice(piece, loop, counted.size) for piece in slices(parts[2])) else None  # type: ignore[index]


def batched_length(loop: cst.CSTNode, generator: "cst.FunctionDef | cst.Module",
                   outer: Optional[OuterAssignment] = None) -> Optional[cst.BaseExpression]:
    """The data length a ragged loop batches, to check that it does not divide evenly: ``n`` of
    a counted_to_end loop's ``divmod(n, B)``, or the stop of a sliced_to_end loop's ``range(0,
    n, B)`` (``len(x)``, ``x.shape[0]``), through one name assigned in or around the generator."""
    parts = _loop_parts(loop)
    if parts is None or not _builtin(parts[1], "range"):
        return None
    arguments = parts[1].args  # type: ignore[attr-defined]
    if len(arguments) == 1:
        counted = _ceiling_count(arguments[0].value, generator, outer)
        length = counted.length if counted is not None and not counted.past_full else None
    else:
        length = arguments[1].value if len(arguments) == 3 else None
    if isinstance(length, cst.Name):
        assigned = _value_of(length.value, generator, outer)
        length = assigned[1] if assigned is not None and is_name(assigned[0], length.value) else length
    return length


def _times(expr: Optional[cst.BaseExpression], counter: str, size: str) -> bool:
    """``i * B`` or ``B * i``."""
    return isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply) and (
        is_name(expr.left, counter) and src(expr.right) == size or is_name(expr.right, counter) and src(expr.left) == size)


def _plus_one(expr: cst.BaseExpression, counter: str) -> bool:
    """``(i + 1)``."""
    return isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add) \
        and is_name(expr.left, counter) and isinstance(expr.right, cst.Integer) and expr.right.value == "1"


def _value_of(name: str, generator: cst.FunctionDef, outer: Optional[OuterAssignment]
              ) -> Optional[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(target, value) of the one assignment of ``name`` in the generator, or around it."""
    statements = [n for n in own_nodes(_body(generator)) if isinstance(n, cst.Assign) and len(n.targets) == 1
                  and any(is_name(t, name) for t in _target_names(n.targets[0].target))]
    statement = statements[0] if len(statements) == 1 else None
    if statement is None and not statements and outer is not None:
        statement = outer(name)
    return (statement.targets[0].target, statement.value) if statement is not None and len(statement.targets) == 1 else None


def _target_names(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    return [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]


def _ceiling_count(expr: cst.BaseExpression, generator: "cst.FunctionDef | cst.Module",
                   outer: Optional[OuterAssignment], depth: int = 0) -> Optional[BatchCount]:
    """The BatchCount when ``expr`` is the number of batches of a data length, the last one
    partial: ``full + bool(rest)`` of ``full, rest = divmod(n, B)``, ``math.ceil(n / B)``,
    ``-(-n // B)``, ``n // B + 1``; through names assigned once."""
    if depth > 3:
        return None
    if isinstance(expr, cst.Name):
        value = _value_of(expr.value, generator, outer)
        return _ceiling_count(value[1], generator, outer, depth + 1) if value is not None and is_name(value[0], expr.value) else None
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):  # ``full + bool(rest)``
        for full, rest in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(rest, cst.Integer) and rest.value == "1" and isinstance(full, cst.BinaryOperation) \
                    and isinstance(full.operator, cst.FloorDivide) and _length(full.left, generator, outer):
                return BatchCount(src(full.right), full.left, past_full=True)  # ``n // B + 1``
            if isinstance(rest, cst.Call) and _builtin(rest, "bool") and rest.args:
                rest = rest.args[0].value
            if isinstance(full, cst.Name) and isinstance(rest, cst.Name):
                pair = _value_of(full.value, generator, outer)
                if pair is not None and isinstance(pair[0], cst.Tuple) and len(pair[0].elements) == 2 \
                        and is_name(pair[0].elements[0].value, full.value) and is_name(pair[0].elements[1].value, rest.value) \
                        and _builtin(pair[1], "divmod") and len(pair[1].args) == 2 \
                        and _length(pair[1].args[0].value, generator, outer):
                    return BatchCount(src(pair[1].args[1].value), pair[1].args[0].value)
        return None
    if isinstance(expr, cst.Call) and isinstance(expr.func, (cst.Attribute, cst.Name)) and src(expr.func).endswith("ceil") \
            and expr.args and isinstance(expr.args[0].value, cst.BinaryOperation) \
            and isinstance(expr.args[0].value.operator, cst.Divide) \
            and _length(expr.args[0].value.left, generator, outer):  # ``math.ceil(n / B)``
        return BatchCount(src(expr.args[0].value.right), expr.args[0].value.left)
    if isinstance(expr, cst.Call) and _builtin(expr, "int") and expr.args:  # ``int(np.ceil(n / B))``
        return _ceiling_count(expr.args[0].value, generator, outer, depth + 1)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.FloorDivide):
        rounded = _rounded_up(expr.left, src(expr.right))  # ``(n + B - 1) // B``
        if rounded is not None and _length(rounded, generator, outer):
            return BatchCount(src(expr.right), rounded)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus) \
            and isinstance(expr.expression, cst.BinaryOperation) and isinstance(expr.expression.operator, cst.FloorDivide):
        inner = expr.expression  # ``-(-n // B)``
        if isinstance(inner.left, cst.UnaryOperation) and isinstance(inner.left.operator, cst.Minus) \
                and _length(inner.left.expression, generator, outer):
            return BatchCount(src(inner.right), inner.left.expression)
    return None


def _rounded_up(expr: cst.BaseExpression, size: str) -> Optional[cst.BaseExpression]:
    """``n`` of ``n + B - 1`` (or ``n + (B - 1)``), the numerator that rounds a floor division
    by ``B`` up."""
    expr = _unparenthesized(expr)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Subtract) \
            and isinstance(expr.right, cst.Integer) and expr.right.value == "1":
        added = _unparenthesized(expr.left)  # ``(n + B) - 1``
        if isinstance(added, cst.BinaryOperation) and isinstance(added.operator, cst.Add) and src(added.right) == size:
            return added.left
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        less = _unparenthesized(expr.right)  # ``n + (B - 1)``
        if isinstance(less, cst.BinaryOperation) and isinstance(less.operator, cst.Subtract) \
                and src(less.left) == size and isinstance(less.right, cst.Integer) and less.right.value == "1":
            return expr.left
    return None


def _unparenthesized(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.with_changes(lpar=[], rpar=[]) if getattr(expr, "lpar", None) else expr


def _length(expr: cst.BaseExpression, generator: cst.FunctionDef, outer: Optional[OuterAssignment]) -> bool:
    """A data length (``data_length``), also through a name assigned around the generator."""
    if data_length(expr, generator):
        return True
    if isinstance(expr, cst.Name):
        found = _value_of(expr.value, generator, outer)
        return found is not None and is_name(found[0], expr.value) and data_length(found[1], generator)
    return False


def flag_bounded_stop(loop: cst.CSTNode, generator: cst.FunctionDef) -> Optional[cst.IfExp]:
    """``stop = n - n % B if drop_last else n`` bounding ``for s in range(0, stop, B)``: the
    remainder is dropped only when the flag is true (the conditional is the guard)."""
    if not (isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call) and len(loop.iter.args) == 3):
        return None
    stop = loop.iter.args[1].value
    if isinstance(stop, cst.Name):
        stop = assigned_once(generator, stop.value) or stop
    return stop if isinstance(stop, cst.IfExp) and isinstance(stop.test, cst.Name) else None


def assigned_once(generator: cst.FunctionDef, name: str) -> Optional[cst.BaseExpression]:
    """The value of the one ``name = value`` statement in the generator's own body, if one."""
    values = [n.value for n in own_nodes(_body(generator)) if isinstance(n, cst.Assign)
              and len(n.targets) == 1 and is_name(n.targets[0].target, name)]
    return values[0] if len(values) == 1 else None


def ragged_loader_class(loader: cst.ClassDef) -> Optional[RaggedLoop]:
    """ragged_loop of a hand-written loader class's ``__iter__`` generator: ``for i in range(0,
    len(self.data), self.batch_size): yield self.data[i:i + self.batch_size]``."""
    methods = [s for s in loader.body.body if isinstance(s, cst.FunctionDef)] \
        if isinstance(loader.body, cst.IndentedBlock) else []
    iterate = next((m for m in methods if m.name.value == "__iter__"), None)
    found = ragged_loop(iterate, loader_lengths(methods)) if iterate is not None else None
    return found or next_slices_to_end(methods)


def next_slices_to_end(methods: list[cst.FunctionDef]) -> Optional[RaggedLoop]:
    """A loader whose ``__next__`` (or a method it calls) slices ``self.indices[self.i:self.i +
    self.batch_size]``, advances ``self.i += self.batch_size`` and stops with StopIteration once
    ``self.i >= len(...)``: the last slice holds what is left (hmankodiya's DataLoader)."""
    step = next((m for m in methods if m.name.value == "__next__"), None)
    if step is None or not any(isinstance(node, cst.Raise) for node in own_nodes(step.body)):
        return None
    for method in methods:
        for node in own_nodes(method.body):
            if not isinstance(node, cst.Slice) or node.step is not None:
                continue
            lower, upper = node.lower, node.upper
            if not (isinstance(lower, cst.Attribute) and is_name(lower.value, "self")
                    and isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Add)
                    and src(upper.left) == src(lower)):
                continue
            counter, size = src(lower), src(upper.right)
            advances = any(isinstance(n, cst.AugAssign) and isinstance(n.operator, cst.AddAssign)
                           and src(n.target) == counter and src(n.value) == size
                           for m in methods for n in own_nodes(m.body))
            # ``if self.i >= len(self.indices): raise StopIteration`` (not ``self.i + B > n``,
            # which drops the short batch)
            stops = any(isinstance(n, cst.If) and isinstance(n.test, cst.Comparison) and len(n.test.comparisons) == 1
                        and src(n.test.left) == counter and "len(" in src(n.test.comparisons[0].comparator, 400)
                        and isinstance(n.test.comparisons[0].operator, (cst.GreaterThanEqual, cst.GreaterThan))
                        and any(isinstance(r, cst.Raise) for r in _walk(n.body)) for n in own_nodes(step.body))
            if advances and stops:
                return RaggedLoop(step, size, None, "next")
    return _counted_next(methods, step)


def _counted_next(methods: list[cst.FunctionDef], step: cst.FunctionDef) -> Optional[RaggedLoop]:
    """A loader whose ``__next__`` slices batch ``self.k`` as ``[self.k * B:(self.k + 1) * B]``,
    advances ``self.k += 1`` and stops past the count of full batches (``if self.k >
    self.batch_num: raise StopIteration`` with ``self.batch_num = n // B``), or at a count
    rounded up (``self.k >= math.ceil(n / B)``): the last batch holds what is left (jax-trainer's
    dataLoader)."""
    counts = {src(n.targets[0].target): n.value for m in methods for n in own_nodes(m.body)
              if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Attribute)
              and is_name(n.targets[0].target.value, "self")}
    for method in methods:
        for piece in (n for n in own_nodes(method.body) if isinstance(n, cst.Slice) and n.step is None):
            lower, upper = piece.lower, piece.upper
            if not (isinstance(lower, cst.BinaryOperation) and isinstance(lower.operator, cst.Multiply)
                    and isinstance(lower.left, cst.Attribute) and is_name(lower.left.value, "self")
                    and isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Multiply)
                    and src(upper.right) == src(lower.right)):
                continue
            following = _unparenthesized(upper.left)  # ``(self.k + 1)``
            if not (isinstance(following, cst.BinaryOperation) and isinstance(following.operator, cst.Add)
                    and src(following.left) == src(lower.left) and isinstance(following.right, cst.Integer)
                    and following.right.value == "1"):
                continue
            counter, size = src(lower.left), src(lower.right)
            advances = any(isinstance(n, cst.AugAssign) and isinstance(n.operator, cst.AddAssign)
                           and src(n.target) == counter and src(n.value) == "1"
                           for m in methods for n in own_nodes(m.body))
            for test in (n.test for n in own_nodes(step.body) if isinstance(n, cst.If)
                         and any(isinstance(r, cst.Raise) for r in _walk(n.body))):
                if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and src(test.left) == counter):
                    continue
                operator, bound = test.comparisons[0].operator, test.comparisons[0].comparator
                count = counts.get(src(bound))
                floor = isinstance(count, cst.BinaryOperation) and isinstance(count.operator, cst.FloorDivide) \
                    and src(count.right) in (size, size.removeprefix("self."))
                rounded = count is not None and _rounds_up(count, size)
                if advances and (isinstance(operator, cst.GreaterThan) and floor
                                 or isinstance(operator, (cst.GreaterThanEqual, cst.Equal)) and rounded):
                    return RaggedLoop(step, size, None, "next")
    return None


def _rounds_up(count: cst.BaseExpression, size: str) -> bool:
    """``math.ceil(n / B)``, ``-(-n // B)``, ``(n + B - 1) // B`` of the batch size ``size``."""
    sizes = (size, size.removeprefix("self."))
    if isinstance(count, cst.Call) and src(count.func).endswith("ceil") and count.args \
            and isinstance(count.args[0].value, cst.BinaryOperation) and src(count.args[0].value.right) in sizes:
        return True
    if isinstance(count, cst.BinaryOperation) and isinstance(count.operator, cst.FloorDivide) and src(count.right) in sizes:
        return _rounded_up(count.left, src(count.right)) is not None or \
            isinstance(count.left, cst.UnaryOperation) and isinstance(count.left.operator, cst.Minus)
    return False


def loader_lengths(methods: list[cst.FunctionDef]) -> frozenset[str]:
    """The ``self`` attributes the methods assign the data's length (``self.n = len(x)``)."""
    found = set()
    for method in methods:
        for node in own_nodes(method.body):
            if isinstance(node, cst.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0].target, cst.Attribute) \
                    and is_name(node.targets[0].target.value, "self") and data_length(node.value, method):
                found.add(src(node.targets[0].target))
    return frozenset(found)


def sliced_to_end(loop: cst.CSTNode, generator: cst.FunctionDef,
                  lengths: frozenset[str] = frozenset(), parameter_lengths: bool = False) -> Optional[str]:
    """The batch size (its code) when ``loop`` slices batches up to the end of the data:
    ``for s in range(a, n, B)`` (or a comprehension over it) with ``x[s:s + B]``, or ``while
    s < n`` with ``x[s:e]``.  ``parameter_lengths``: ``n`` may be a parameter of the def."""
    parts = _loop_parts(loop)
    if parts is not None and isinstance(parts[0], cst.Name) and _builtin(parts[1], "range") \
            and len(parts[1].args) == 3 and (  # type: ignore[attr-defined]
                data_length(parts[1].args[1].value, generator, lengths=lengths)  # type: ignore[attr-defined]
                or parameter_lengths and stop_parameter(loop, generator) is not None):
        target, iterable, body = parts
        start, step = target.value, src(iterable.args[2].value)  # type: ignore[attr-defined]
        for lower, upper in (*((p.lower, p.upper) for p in slices(body)), *index_ranges(body)):
            if isinstance(upper, cst.Name):  # ``end = min(start + B, n)`` in the loop
                # (or ``end = start + B`` then ``end = np.minimum(end, n)``: the sum is the bound)
                values = [n.value for n in _walk(body) if isinstance(n, cst.Assign) and len(n.targets) == 1
                          and is_name(n.targets[0].target, upper.value)]
                upper = next((v for v in values if isinstance(v, cst.BinaryOperation)),
                             next((v for v in values if _clipped(v) is not None), upper))
            operands = _clipped(upper)
            if operands is not None:
                upper = next((a for a in operands if isinstance(a, cst.BinaryOperation)), upper)
            if is_name(lower, start) and isinstance(upper, cst.BinaryOperation) \
                    and isinstance(upper.operator, cst.Add) and is_name(upper.left, start) \
                    and src(upper.right) == step:
                return step
        return None
    if isinstance(loop, cst.While) and isinstance(loop.test, cst.Comparison) \
            and len(loop.test.comparisons) == 1 and isinstance(loop.test.left, cst.Name) \
            and isinstance(loop.test.comparisons[0].operator, cst.LessThan) \
            and data_length(loop.test.comparisons[0].comparator, generator, lengths=lengths):
        start = loop.test.left.value
        for piece in slices(loop.body):
            if not is_name(piece.lower, start) or piece.upper is None:
                continue
            upper = piece.upper
            if isinstance(upper, cst.Name):  # end = start + batch_size, somewhere in the generator
                upper = next((n.value for n in own_nodes(_body(generator)) if isinstance(n, cst.Assign)
                              and len(n.targets) == 1 and is_name(n.targets[0].target, upper.value)
                              and isinstance(n.value, cst.BinaryOperation)
                              and isinstance(n.value.operator, cst.Add)), upper)
            if isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Add):
                return src(upper.right)
            return ""
    return None


def data_length(expr: cst.BaseExpression, generator: cst.FunctionDef, depth: int = 0,
                lengths: frozenset[str] = frozenset()) -> bool:
    """``len(data)`` / ``x.shape[0]``, or a name the generator assigns from one (or an item
    of a list of them), or an attribute of ``lengths``: the length of the data itself.  A count given from outside
    (``num_samples=16``) may well be a multiple of
    the batch size: not judged, as JIT504's own ``range(0, len(x), B)`` form requires."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "len":
        return True
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Attribute) \
            and expr.value.attr.value == "shape":
        return True
    if isinstance(expr, cst.Attribute) and lengths:
        return src(expr) in lengths
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and depth < 2:
        # ``n = sizes[0]`` of ``sizes = [a.shape[0] for a in jtu.tree_leaves(data)]``: the
        # length of a pytree's leaves
        value = assigned_once(generator, expr.value.value)
        return isinstance(value, cst.ListComp) and data_length(value.elt, generator, depth + 1, lengths)
    if isinstance(expr, cst.IfExp) and isinstance(expr.test, cst.Name):  # ``... if drop_last else n``
        return data_length(expr.orelse, generator, depth, lengths)
    if isinstance(expr, cst.Name) and depth < 2:
        value = assigned_once(generator, expr.value)
        return value is not None and data_length(value, generator, depth + 1, lengths)
    return False


def slices(node: cst.CSTNode) -> Iterator[cst.Slice]:
    return (n for n in _walk(node) if isinstance(n, cst.Slice))


def index_ranges(node: cst.CSTNode) -> Iterator[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(start, stop) of each ``range(start, stop)`` in ``node``: a batch gathered item by item
    (``[dataset[j] for j in range(i, min(i + B, n))]``) spans those rows as a slice would."""
    for call in (n for n in _walk(node) if isinstance(n, cst.Call)):
        if _builtin(call, "range") and len(call.args) == 2 and not any(a.keyword or a.star for a in call.args):
            yield call.args[0].value, call.args[1].value


def _clipped(expr: Optional[cst.CSTNode]) -> Optional[list[cst.BaseExpression]]:
    """The two operands of a minimum that clips a batch's end to the data: ``min(a, b)``, or
    an array library's elementwise ``minimum(a, b)`` (``np.minimum``, ``jnp.minimum``)."""
    if isinstance(expr, cst.Call) and len(expr.args) == 2 and not any(a.keyword or a.star for a in expr.args) \
            and (_builtin(expr, "min") or isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "minimum"):
        return [a.value for a in expr.args]
    return None


def _builtin(expr: Optional[cst.CSTNode], name: str) -> bool:
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == name


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``node`` and what it holds, not into nested defs, classes or lambdas."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if not isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            stack.extend(children(current))


def guard_acts(guard: cst.CSTNode) -> bool:
    """An ``if`` about the short batch does something about it: it skips it (``continue``,
    ``break``, ``return``, ``raise``), yields only under it, or calls something (pads it, or
    makes the jitted call only for full batches), not only a method that keeps its rows or a
    builtin that computes a bound (``if end > len(x): end = len(x)`` keeps the batch short)."""
    if not isinstance(guard, cst.If):
        return True  # a conditional expression picks another value for the short batch
    for node in _walk(guard):
        if isinstance(node, (cst.Continue, cst.Break, cst.Return, cst.Raise, cst.Yield)):
            return True  # skips the short batch, or yields only under the test
        if isinstance(node, cst.Call) and not (isinstance(node.func, cst.Attribute)
                                               and node.func.attr.value in SIZE_KEEPING_METHODS) \
                and not (isinstance(node.func, cst.Name) and node.func.value in _COUNTING_BUILTINS):
            return True
    return False


# Builtins an ``if`` calls to compute a bound (``end = min(len(x), end)``), not to act on a batch
_COUNTING_BUILTINS = frozenset({"len", "min", "max", "int"})


def short_batch_guard(loop: cst.CSTNode, size: str) -> Optional[cst.CSTNode]:
    """An ``if`` in the loop that tests a batch's length (``len(...)`` / ``.shape``) or the
    end of a batch against the data (drop_last written by hand), and acts on it (guard_acts)."""
    # a comprehension's ``if`` clauses hang on its ``for``
    stack = list(children(loop.for_in if isinstance(loop, (cst.ListComp, cst.GeneratorExp)) else loop.body))  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.If, cst.IfExp, cst.CompIf)):
            test = src(node.test, 400)
            if ("len(" in test or ".shape" in test or (size and size in test)) and any(
                    op in test for op in ("<", ">", "!=", "==")) and guard_acts(node):
                return node
        if not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            stack.extend(children(node))
    return None


def is_name(expr: Optional[cst.BaseExpression], name: str) -> bool:
    return isinstance(expr, cst.Name) and expr.value == name


def src(node: cst.CSTNode, limit: int = 60) -> str:
    return source_text(node, limit)
