# source: https://github.com/iory/scikit-robot/issues/871
# expect: jit-in-loop-or-body at line 42
# runtime: COMPILES 6 CALLS 3
# why: every solve() calls _build_functions, which closes over the problem's FK arrays and returns freshly jax.jit-wrapped closures; jit keys on function identity, so each solve traces and compiles the cost and its gradient again (6 compiles, both named jit(cost), for 3 solves of the same problem).

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
import jax
import jax.numpy as jnp


class AugmentedLagrangianSolver:
    def _build_functions(self, fk_data):
        lengths, target = fk_data

        def cost(q):
            angles = jnp.cumsum(q)
            tip = jnp.stack([jnp.sum(lengths * jnp.cos(angles)), jnp.sum(lengths * jnp.sin(angles))])
            return jnp.sum((tip - target) ** 2) + 1e-3 * jnp.sum(q**2)

        cost_fn = jax.jit(cost)
        grad_fn = jax.jit(jax.grad(cost))
        return cost_fn, grad_fn

    def solve(self, fk_data, q0, iters=5, lr=0.1):
        cost_fn, grad_fn = self._build_functions(fk_data)
        q = q0
        for _ in range(iters):
            q = q - lr * grad_fn(q)
        return q, cost_fn(q)


fk_data = (jnp.ones(4), jnp.array([1.5, 1.5]))
q0 = jnp.zeros(4)
solves = 0
for _ in range(3):  # the same problem solved three times, a new solver each time
    solver = AugmentedLagrangianSolver()
    q, c = solver.solve(fk_data, q0)
    solves += 1
_report({"jit(cost)"}, solves)
