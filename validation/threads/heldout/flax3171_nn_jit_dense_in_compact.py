# source: https://github.com/google/flax/issues/3171
# expect: jit-in-loop-or-body at line 38
# runtime: COMPILES 2 CALLS 2
# why: nn.jit(nn.Dense) builds a lifted jit inside the compact __call__, so every eager init/apply of MyModel makes a new jitted core_fn: the Dense is compiled again on each call (2 compiles for 2 inits; measured the same for repeated apply). The maintainer's advice is a plain jax.jit over the train step instead.

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

class MyModel(nn.Module):
    num_neurons: int

    @nn.compact
    def __call__(self, x, training: bool):
        x = nn.jit(nn.Dense)(self.num_neurons)(x)
        x = nn.Dropout(rate=0.5, deterministic=not training)(x)
        return x

def main():
    root_key = jax.random.PRNGKey(seed=0)
    main_key, params_key, dropout_key = jax.random.split(key=root_key, num=3)
    my_model = MyModel(num_neurons=3)
    x = jnp.empty((3, 4, 4))
    variables = my_model.init(params_key, x, False)
    variables = my_model.init(params_key, x, False)  # scaffolding

if __name__ == "__main__":
    main()
    _report({"jit(core_fn)"}, 2)  # scaffolding
