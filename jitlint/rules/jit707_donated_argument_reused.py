from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import calling_context
from jitlint.rules._jitted import name_loads
from jitlint.rules._static import jitted_call_sites
from jitlint.semantic import Binding, CallSite
from jitlint.values import array_made_by, statements_in, value_flow
from jitlint.walk import iter_nodes
from jitlint.walk import source_text as _src

# Reading these of a donated array needs no buffer (measured: ``x.shape`` works after donation).
METADATA_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size", "sharding", "is_deleted"})


class DonatedArgumentReused(Rule):
    """
    ## What it does
    Flags an array passed at a donated position of a jitted call (`donate_argnums` /
    `donate_argnames`, also inferred one from the other as jit does; also a jit of a transform,
    `jax.jit(jax.grad(loss), donate_argnums=0)`, whose gradient is written into the donated
    parameters' buffer) that the code uses again
    afterwards: passed to a later call (`cauchy(a, g, l)` then `cauchy(b, g, l)`), computed
    with, or passed again by a loop that never rebinds it (the next iteration hands the same,
    donated buffer). A read after an `if` whose branch donated the array and then rebound the
    name is fine: only the other branch lets the old binding out, and it donated nothing
    (tomojax's alignment loop). So is a name bound to the same array before the call (`p5_in =
    params5`, then `grad_all(params5, x)` donates: reading `p5_in` raises; `jnp.copy(params5)`
    keeps its own buffer). The finding sits at the use that raises, with the donating call as
    evidence. Reading `.shape` / `.dtype` of it is fine; NumPy arrays are never donated (jit
    copies them); a call that runs traced (inside another jit) donates nothing.

    ## Why is this bad?
    Donation lets XLA reuse the argument's buffer for the output: after the call the array is
    deleted. Measured on jax 0.10.2 (CPU): passing it to the jitted function again raises
    `ValueError: ... Buffer has been deleted or donated`, computing with it raises
    RuntimeError; `x = f(x)` in a loop (rebinding the name to the result) is fine, and so is
    a NumPy array passed twice (annotated-s4 e0f59c3, bonsai b33c507: a warm-up call donates
    the state the timed loop passes again).

    ## Fix safety
    Rebind the name to the call's result (`state = step(state)`), pass a copy
    (`jnp.copy(x)`), or stop donating the argument; each keeps the results.
    """

    code = "JIT707"
    name = "donated-argument-reused"
    summary = "an array donated to a jitted call is used again afterwards: its buffer was deleted"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, donate_argnums=1)
        def scale(v, w):
            return v * w

        w = jnp.ones(3)
        a = scale(jnp.ones(3), w)
        b = scale(jnp.zeros(3), w)
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, donate_argnums=1)
        def scale(v, w):
            return v * w

        w = jnp.ones(3)
        for step in range(3):
            w = scale(jnp.ones(3), w)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        context = calling_context(ctx)
        jitted_args = {id(arg.value) for site, _, _ in jitted_call_sites(ctx) for arg in site.node.args}
        for site, spec, shift in jitted_call_sites(ctx):
            nums, names = spec.effective_donated()
            if not (nums or names) or spec.filtering or not spec.checkable or context.runs_traced(site.frame):
                continue  # under an outer jit nothing is donated
            positional = [a for a in site.node.args if a.keyword is None]
            if any(a.star for a in site.node.args):
                continue
            for index, arg in enumerate(site.node.args):
                donated = (arg.keyword.value in names) if arg.keyword is not None \
                    else (positional.index(arg) + shift) in nums
                if donated and isinstance(arg.value, cst.Name):
                    found = _reuse(ctx, site, arg.value)
                    if found is not None:
                        use, how = found
                        # a jitted call checks its buffers (ValueError); anything else reads the
                        # deleted array (RuntimeError)
                        error = "ValueError: buffer has been deleted or donated" \
                            if use is arg.value or id(use) in jitted_args else "RuntimeError: Array has been deleted"
                        yield Violation(use, (
                            f"`{arg.value.value}` was donated to `{spec.name}` (`{_src(site.node, 50)}`): "
                            f"its buffer is deleted after that call, and {how}, which raises "
                            f"({error}); rebind "
                            f"`{arg.value.value}` to the call's result, pass a copy (jnp.copy), or "
                            f"stop donating it"),
                            related=((arg.value, "donated here"),))


def _reuse(ctx: FileContext, site: CallSite, name: cst.Name) -> Optional[tuple[cst.CSTNode, str]]:
    """Where the donated binding of ``name`` is read after ``site``: a later statement of the
    same body, or the same call again on the loop's next iteration."""
    model, flow, scope = ctx.model, value_flow(ctx), site.frame.scope
    donated = flow.reaching(name, scope)
    if not donated or any(_numpy_array(ctx, b) for b in donated):
        return None
    if site.statement is not None and any(
            isinstance(n, cst.Name) and n.value == name.value
            for target in _targets(site.statement) for n in iter_nodes(target)):
        return None  # ``state = step(state)``: the name holds the result from here on
    ids = {id(b) for b in donated}
    loops = site.frame.loops_in_scope()
    after = model.order(site.node)
    branch = _rebinding_branch(site, name.value)
    # ``p5_in = params5`` before the call: another name for the same buffer
    aliases = {id(b): b.name for names in scope.bindings.values() for b in names
               if b.kind == "assign" and isinstance(b.value, cst.Name) and b.value.value == name.value
               and model.order(b.node) < after and any(id(r) in ids for r in flow.reaching(b.value, scope))}
    for small in sorted(statements_in(scope.node), key=model.order):
        if model.order(small) <= after or isinstance(small, cst.Del) \
                or any(node is site.node for node in iter_nodes(small)):
            continue  # before the call, a ``del``, or the call's own statement (``x = f(x)``)
        if branch is not None and not any(node is small for node in iter_nodes(branch)):
            continue  # past the branch that donates and then rebinds it: the old value reaches only the other path
        metadata = {id(n.value) for n in iter_nodes(small)
                    if isinstance(n, cst.Attribute) and n.attr.value in METADATA_ATTRIBUTES}
        if loops and not any(node is small for node in iter_nodes(loops[-1])) and any(
                any(node is b.node for node in iter_nodes(loops[-1])) for b in scope.bindings.get(name.value, [])):
            continue  # after a loop that rebinds it: the donated value reaches only if the loop never ran
        for read in name_loads(small):
            if read.value == name.value and id(read) not in metadata \
                    and any(id(b) in ids for b in flow.reaching(read, scope)):
                return read, f"`{_src(small, 50)}` uses it again"
            if read.value != name.value and id(read) not in metadata \
                    and any(id(b) in aliases for b in flow.reaching(read, scope)):
                return read, (f"`{_src(small, 50)}` uses it again through `{read.value}`, bound to the "
                              f"same array before the call")
    bound = scope.bindings.get(name.value, [])
    for loop in site.frame.loops_in_scope():
        inside = {id(node) for node in iter_nodes(loop)}
        if not any(id(b.node) in inside for b in bound):
            return name, "the loop passes it again on its next iteration without rebinding it"
    return None


def _rebinding_branch(site: CallSite, name: str) -> Optional[cst.BaseSuite]:
    """The ``if`` / ``else`` block around the donating call that rebinds ``name`` in one of its
    own statements after the call (``p = f(p0)`` ... ``p = lax.cond(...)`` in the ``else``):
    only the other branch lets the old binding out, and it donated nothing."""
    loops = site.frame.loops_in_scope()
    around = loops[0] if loops else site.frame.scope.node  # the innermost loop, or the function
    containing = [n for n in iter_nodes(around) if isinstance(n, cst.If) and n is not around
                  and any(node is site.node for node in iter_nodes(n))]
    if not containing:
        return None
    innermost = containing[-1]  # depth first: the last one holding the call is the innermost
    orelse = innermost.orelse
    blocks = [innermost.body] + ([orelse.body] if isinstance(orelse, cst.Else) else [])
    block = next((b for b in blocks if any(node is site.node for node in iter_nodes(b))), None)
    if not isinstance(block, cst.IndentedBlock):
        return None  # in the test, or in an ``elif`` chain's own ``if``
    statements = list(block.body)
    holding = next(i for i, s in enumerate(statements) if any(node is site.node for node in iter_nodes(s)))
    rebinds = any(isinstance(t, cst.Name) and t.value == name for s in statements[holding + 1:] for t in _targets(s))
    return block if rebinds else None


def _targets(statement: cst.CSTNode) -> list[cst.CSTNode]:
    """What an assignment statement binds (its targets), nothing for other statements."""
    small = statement.body if isinstance(statement, cst.SimpleStatementLine) else [statement]
    found: list[cst.CSTNode] = []
    for node in small:
        if isinstance(node, cst.Assign):
            found.extend(t.target for t in node.targets)
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            found.append(node.target)
    return found


def _numpy_array(ctx: FileContext, binding: Binding) -> bool:
    """A NumPy array: jit copies it to the device, the name keeps its own buffer."""
    value = binding.value if binding.kind == "assign" else None
    return isinstance(value, cst.Call) and array_made_by(ctx.model, value, binding.scope) == "a NumPy array"
