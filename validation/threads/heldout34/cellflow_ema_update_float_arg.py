# source: https://github.com/theislab/CellFlow/commit/ba1c8aaf40f6756d239ab080fbc7a3042d212d9b
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: ema_update is jitted with a Python float `ema` passed on every step; the float is traced (weak-typed scalar), not static, so it compiles once.
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


@jax.jit
def ema_update(current_model_params: dict, new_model_params: dict, ema: float) -> dict:
    """
    Update parameters using exponential moving average.

    Parameters
    ----------
        current_model_parames
            Current parameters.
        new_model_params
            New parameters to be averaged.
        ema
            Exponential moving average factor
            between `0` and `1`. `0` means no update, `1` means full update.

    Returns
    -------
        Updated parameters after applying EMA.
    """
    new_inference_model_params = jax.tree.map(
        lambda p, tp: p * (1 - ema) + tp * ema, current_model_params, new_model_params
    )
    return new_inference_model_params


class _Solver:  # scaffolding: the parts of OTFlowMatching (_otfm.py) that call ema_update
    def __init__(self, ema):
        self.ema = ema
        self.params = {"w": jnp.ones((4, 4)), "b": jnp.zeros(4)}
        self.inference_params = self.params


solver = _Solver(ema=0.999)  # scaffolding
for step in range(5):  # scaffolding
    solver.params = jax.tree.map(lambda p: p - 0.01, solver.params)  # scaffolding: stand-in for the optimizer step
    solver.inference_params = ema_update(solver.inference_params, solver.params, solver.ema)
_report({"jit(ema_update)"}, 5)
