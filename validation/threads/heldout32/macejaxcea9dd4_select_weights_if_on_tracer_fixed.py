# source: https://github.com/ACEsuit/mace-jax/commit/cea9dd45efd3df9a653c8f8ab0f925268386e981
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: With the commit's check (invalid = jnp.any(...) | jnp.any(...) fed to lax.cond whose true branch raises through jax.debug.callback) nothing converts a tracer to bool, so four jitted evaluations with valid indices compile once.

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
import flax.linen as fnn
import jax
import jax.numpy as jnp


def _select_weights(
    weight_flat: jnp.ndarray,
    selector: jnp.ndarray,
    *,
    dtype: jnp.dtype,
    num_elements: int,
) -> jnp.ndarray:
    """Select element weights by index or mixing matrix.

    Parameters
    ----------
    weight_flat:
        Weight tensor flattened to ``(num_elements, weight_dim)``.
    selector:
        Either integer indices of shape ``(batch,)`` or a mixing matrix
        ``(batch, num_elements)``.
    dtype:
        Target dtype for the selection.
    num_elements:
        Upper bound used to validate integer indices.

    Returns
    -------
    jnp.ndarray
        Per-example weights ready to be wrapped in a :class:`RepArray`.
    """
    selector = jnp.asarray(selector)
    if selector.ndim == 1:
        idx = selector.astype(jnp.int32)
        invalid = jnp.any(idx < 0) | jnp.any(idx >= num_elements)

        def _raise(_):
            jax.debug.callback(_raise_invalid_indices, jnp.int32(0))
            return jnp.int32(0)

        jax.lax.cond(invalid, _raise, lambda _: jnp.int32(0), operand=jnp.int32(0))
        return weight_flat[idx]

    if selector.ndim == 2:
        if selector.shape[1] != num_elements:
            raise ValueError('Mixing matrix must have second dimension num_elements')
        mix = jnp.asarray(selector, dtype=dtype)
        return mix @ weight_flat

    raise ValueError('indices must be rank-1 (element ids) or rank-2 (mixing matrix)')


def _raise_invalid_indices(_: jnp.ndarray) -> None:
    raise ValueError('indices out of range for the available elements')


def _raise_invalid_indices(_: jnp.ndarray) -> None:
    raise ValueError('indices out of range for the available elements')


class SymmetricContraction(fnn.Module):  # scaffolding: stands in for the cuequivariance SymmetricContraction (descriptor/basis projection cut)
    num_elements: int
    weight_numel: int = 8

    @fnn.compact
    def __call__(self, x, indices):
        dtype = x.dtype
        weight_flat = self.param("w", fnn.initializers.normal(), (self.num_elements, self.weight_numel))
        selected = _select_weights(
            weight_flat,
            indices,
            dtype=dtype,
            num_elements=self.num_elements,
        )
        return x * selected


model = SymmetricContraction(num_elements=3)  # scaffolding
x = jnp.ones((5, 8))  # scaffolding: 5 nodes
params = model.init(jax.random.PRNGKey(0), x, jnp.zeros((5,), jnp.int32))  # scaffolding (init runs eagerly)


@jax.jit
def energy_step(params, x, indices):  # scaffolding: a jitted model evaluation as in mace-jax training/prediction
    return model.apply(params, x, indices).sum()


calls = 0  # scaffolding
try:  # scaffolding
    for k in range(4):  # scaffolding: four graphs with the same node count
        species = (jnp.arange(5, dtype=jnp.int32) + k) % 3  # scaffolding: per-node element indices
        e = energy_step(params, x, species)
        calls += 1  # scaffolding
    _report({"jit(energy_step)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
