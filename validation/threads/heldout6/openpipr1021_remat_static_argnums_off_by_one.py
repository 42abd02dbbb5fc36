# source: https://github.com/Physical-Intelligence/openpi/pull/1021
# expect: bad-static-spec at line 45
# runtime: ERROR TracerBoolConversionError
# why: nn.remat's static_argnums count self, so (5,) marks adarms_cond static instead of deterministic; deterministic stays traced and Dropout's Python branch on it raises TracerBoolConversionError at init.

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
import flax.linen as nn


class Block(nn.Module):
    width: int = 8
    dropout: float = 0.1

    @nn.compact
    def __call__(self, x, kv_cache, positions, attn_mask, adarms_cond, deterministic):
        h = nn.Dense(self.width)(x)
        h = nn.Dropout(self.dropout)(h, deterministic=deterministic)
        return x + h


RematBlock = nn.remat(Block, static_argnums=(5,))


class Module(nn.Module):
    @nn.compact
    def __call__(self, x, deterministic=True):
        return RematBlock()(x, None, None, None, None, deterministic)


x = jnp.ones((2, 8))
try:
    variables = Module().init({"params": jax.random.key(0), "dropout": jax.random.key(1)}, x, False)
    _report(set(), 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
