# source: https://github.com/marin-community/haliax/issues/57
# expect: trace-time-error at line 57
# runtime: ERROR TracerBoolConversionError
# why: the block function scanned over layers branches with a Python `if jnp.equal(layer_idx.array, 4):`; layer_idx is the scanned (traced) layer index, so the bool conversion raises TracerBoolConversionError.
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
from typing import Optional  # scaffolding
import types  # scaffolding

import jax
import jax.numpy as jnp

AttentionMask = NamedArray = object  # scaffolding
hax = types.SimpleNamespace(sin=jnp.sin)  # scaffolding


class Block:  # scaffolding: a transformer block whose sublayers are stand-ins
    ln_1 = ln_2 = staticmethod(lambda x: x)  # scaffolding
    attn = staticmethod(lambda x, mask, layer_idx, key: jnp.tanh(x))  # scaffolding
    mlp = staticmethod(lambda x, key: jax.nn.gelu(x))  # scaffolding
    resid_dropout = staticmethod(lambda x, key: x)  # scaffolding

    # the block function (haliax.jax_utils.maybe_rng_split scaffolded by jax.random.split)
    def foo(self, x: NamedArray, mask: Optional[AttentionMask | NamedArray], layer_idx, *, key):
            k1, k2, k3, k4 = jax.random.split(key, 4)  # scaffolding: haliax.jax_utils.maybe_rng_split(key, 4)

            attn_output = self.attn(self.ln_1(x), mask=mask, layer_idx=layer_idx, key=k1)
            attn_output = self.resid_dropout(attn_output, key=k2)
            x = x + attn_output

            ff_output = self.mlp(self.ln_2(x), key=k3)
            ff_output = self.resid_dropout(ff_output, key=k4)
            x = x + ff_output

            #import ipdb; ipdb.set_trace()
            if jnp.equal(layer_idx.array, 4):
                #x = x + 0.01*jnp.sin(x*1e2)
                x = x + 0.01*hax.sin(x*1e2)

            return x


# scaffolding: scan(self.foo, ...) over 6 layers, with layer_idx a scanned NamedArray, inside the jitted forward pass
block = Block()  # scaffolding


@jax.jit  # scaffolding
def forward(x, key):  # scaffolding
    def body(carry, layer):  # scaffolding
        idx = types.SimpleNamespace(array=layer)  # scaffolding: NamedArray(layer, Layers)
        return block.foo(carry, None, idx, key=jax.random.fold_in(key, layer)), None  # scaffolding
    return jax.lax.scan(body, x, jnp.arange(6))[0]  # scaffolding


try:  # scaffolding
    forward(jnp.ones(8), jax.random.PRNGKey(0))  # scaffolding
    _report({"jit(forward)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
