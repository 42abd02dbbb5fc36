# source: https://github.com/ACEsuit/mace-jax/commit/cea9dd45efd3df9a653c8f8ab0f925268386e981
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The same pre-fix _select_weights, called with a (nodes, num_elements) mixing matrix: its Python ifs test selector.ndim and selector.shape[1], which are static under jit, so the jitted evaluation traces without error and compiles once for four graphs.

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
        if jnp.any(idx < 0) or jnp.any(idx >= num_elements):
            raise ValueError('indices out of range for the available elements')
        return weight_flat[idx]

    if selector.ndim == 2:
        if selector.shape[1] != num_elements:
            raise ValueError('Mixing matrix must have second dimension num_elements')
        mix = jnp.asarray(selector, dtype=dtype)
        return mix @ weight_flat

    raise ValueError('indices must be rank-1 (element ids) or rank-2 (mixing matrix)')


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
        species = jax.nn.one_hot((jnp.arange(5) + k) % 3, 3)  # scaffolding: a (nodes, num_elements) mixing matrix
        e = energy_step(params, x, species)
        calls += 1  # scaffolding
    _report({"jit(energy_step)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
