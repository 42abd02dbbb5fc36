# source: https://flax.readthedocs.io/en/latest/key_concepts.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the page's jax.jit(linear)(x): an nnx.Linear module is a pytree, so jax.jit of the module object traces its Params and calls it; one compile, same result as eager.
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


from flax import nnx  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

# Eligible parameters were created inside `linear`, using one RNG key 42
linear = nnx.Linear(in_features=4, out_features=2, rngs=nnx.Rngs(42))

# Flax created a `Param` wrapper over the actual `jax.Array` parameter to track metadata
print(type(linear.kernel))        # flax.nnx.Param
print(type(linear.kernel.value))  # jax.Array

x = jax.random.normal(jax.random.key(0), (2, 4))
flax_y = linear(x)

# Flatten allows you to see all the content inside a pytree
arrays, treedef = jax.tree.flatten_with_path(linear)
assert len(arrays) > 1
for kp, value in arrays:
  print(f'linear{jax.tree_util.keystr(kp)}: {value}')
print(f'{treedef = }')

# Unflatten brings the pytree back intact
linear = jax.tree.unflatten(treedef, [value for _, value in arrays])

y = jax.jit(linear)(x)  # JAX transforms works on Flax modules
print("same as eager:", bool(jnp.allclose(y, flax_y)))  # scaffolding
_report({"jit(<unnamed function>)"}, 1)  # scaffolding
