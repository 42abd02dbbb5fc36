# source: https://github.com/jeffminlin/vmcnet/pull/14
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jnp.diff with prepend and append on a static split inside a jitted model now traces and compiles fine (once for 2 calls); the 2021 failure that made the PR drop those arguments does not reproduce on jax 0.10.2.

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


def _get_nelec_per_spin(spin_split, nelec_total):
    return jnp.diff(jnp.array(spin_split), prepend=0, append=nelec_total)


@jax.jit
def model_apply(params, elec_pos):
    nelec_per_spin = _get_nelec_per_spin((2,), elec_pos.shape[0])
    weights = jnp.repeat(params, nelec_per_spin, total_repeat_length=elec_pos.shape[0])
    return jnp.sum(weights[:, None] * elec_pos)


params = jnp.array([1.0, -1.0])
elec_pos = jnp.ones((5, 3))
model_apply(params, elec_pos)
model_apply(params, elec_pos * 2)
_report({"jit(model_apply)"}, 2)
