# source: https://github.com/OpenSourceEconomics/dcegm/pull/167
# expect: trace-time-error at line 45
# runtime: ERROR TracerBoolConversionError
# why: sparsity_condition combines array comparisons with Python `or` and `if`, which needs concrete booleans; called on traced state variables under jax.jit it raises TracerBoolConversionError (the PR notes the full-model simulate fails under jit for this reason).
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
import jax  # scaffolding
import jax.numpy as jnp


def sparsity_condition(
    period, lagged_choice, job_offer, already_retired, survival, model_specs
):
    last_period = model_specs["n_periods"] - 1
    min_ret = model_specs["min_ret_period"]
    max_ret = model_specs["max_ret_period"]

    c1 = (period <= min_ret) & (lagged_choice == 0)
    c2 = (lagged_choice != 0) & (already_retired == 1)
    c3 = (period <= min_ret + 1) & (already_retired == 1)
    c4 = (period > max_ret + 1) & (already_retired != 1) & (survival != 0)
    c5 = (period > max_ret) & (lagged_choice != 0) & (survival != 0)

    if c1 or c2 or c3 or c4 or c5:
        return False

    job_offer_out = 0 if (survival == 0 or lagged_choice == 0) else job_offer
    period_out = last_period if survival == 0 else period

    return {
        "period": period_out,
        "lagged_choice": lagged_choice,
        "already_retired": already_retired,
        "survival": survival,
        "job_offer": job_offer_out,
    }


model_specs = {"n_periods": 10, "min_ret_period": 3, "max_ret_period": 7}  # scaffolding
print(sparsity_condition(5, 1, 1, 0, 1, model_specs))  # scaffolding: plain Python ints work
state = [jnp.array(v) for v in (5, 1, 1, 0, 1)]  # scaffolding: one state as arrays
try:  # scaffolding
    jax.jit(lambda *s: sparsity_condition(*s, model_specs=model_specs))(*state)  # scaffolding
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
