# source: https://github.com/jejjohnson/somax/blob/ef028b635d56b10cfdf7e9f774852a9e810b0145/notebooks/dev/QG_Multilayer/multilayer_qg_revisited_lir.ipynb
# expect: trace-time-error at line 89
# runtime: ERROR TracerBoolConversionError
# why: The notebook jits the LayerDomain constructor itself, so heights, reduced gravities and the correction flag are traced; create_qg_multilayer_mat then does `if correction:` on a tracer and tracing fails with TracerBoolConversionError (the notebook's saved output shows the same error).

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
# (notebook notebooks/dev/QG_Multilayer/multilayer_qg_revisited_lir.ipynb flattened: cell 11; LayerDomain and its
#  helpers are inlined from somax/_src/models/qg/domain.py at the same commit)
import typing as tp

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array
import numpy as np


class LayerDomain(eqx.Module):
    heights: Array = eqx.static_field()
    reduced_gravities: Array = eqx.static_field()
    Nz: float = eqx.static_field()
    A: Array = eqx.static_field()
    A_layer_2_mode: Array = eqx.static_field()
    A_mode_2_layer: Array = eqx.static_field()
    lambda_sq: Array = eqx.static_field()

    def __init__(
        self,
        heights: tp.List[float],
        reduced_gravities: tp.List[float],
        correction: bool = False,
    ):
        num_layers = len(heights)

        msg = "Incorrect number of heights to reduced gravities."
        msg += f"\nHeights: {heights} | {num_layers}"
        msg += f"\nReduced Gravities: {reduced_gravities} | {len(reduced_gravities)}"
        assert num_layers - 1 == len(reduced_gravities), msg

        self.heights = jnp.asarray(heights)
        self.reduced_gravities = jnp.asarray(reduced_gravities)
        self.Nz = num_layers

        # calculate matrix M
        A = create_qg_multilayer_mat(heights, reduced_gravities, correction)
        self.A = jnp.asarray(A)

        # create layer to mode matrices
        lambda_sq, A_layer_2_mode, A_mode_2_layer = calculate_mode_matrices(A)
        self.lambda_sq = jnp.asarray(lambda_sq)
        self.A_layer_2_mode = jnp.asarray(A_layer_2_mode)
        self.A_mode_2_layer = jnp.asarray(A_mode_2_layer)


def create_qg_multilayer_mat(
    heights: tp.List[float], reduced_gravities: tp.List[float], correction: bool = False
) -> np.ndarray:
    num_heights = len(heights)

    # initialize matrix
    A = np.zeros((num_heights, num_heights))

    if num_heights == 1:
        A[0, 0] = 1.0 / (heights[0] * reduced_gravities[0])
    else:
        # top rows
        if correction:
            A[0, 0] = 1.0 / (heights[0] * 9.81) + 1.0 / (
                heights[0] * reduced_gravities[0]
            )
        else:
            A[0, 0] = 1.0 / (heights[0] * reduced_gravities[0])
        A[0, 1] = -1.0 / (heights[0] * reduced_gravities[0])

        # interior rows
        for i in range(1, num_heights - 1):
            A[i, i - 1] = -1.0 / (heights[i] * reduced_gravities[i - 1])
            A[i, i] = (
                1.0
                / heights[i]
                * (1 / reduced_gravities[i] + 1 / reduced_gravities[i - 1])
            )
            A[i, i + 1] = -1.0 / (heights[i] * reduced_gravities[num_heights - 2])

        # bottom rows
        A[-1, -1] = 1.0 / (
            heights[num_heights - 1] * reduced_gravities[num_heights - 2]
        )
        A[-1, -2] = -1.0 / (
            heights[num_heights - 1] * reduced_gravities[num_heights - 2]
        )
    return A


def calculate_mode_matrices(A):
    ev_A, P = jnp.linalg.eig(A)
    lambda_sq = jnp.real(ev_A)
    Cl2m = jnp.linalg.inv(jnp.real(P))
    Cm2l = jnp.real(P)
    return lambda_sq, Cl2m, Cm2l


# cell 11
# heights
# heights = [350.0, 750.0, 2900.0]
heights = [400.0, 1_100.0, 2_600.0]

# reduced gravities
reduced_gravities = [0.025, 0.0125]

# initialize layer domain
# layer_domain = LayerDomain(heights, reduced_gravities, correction=False)
cpu_device = jax.devices('cpu')[0]  # (the gpu_device line before it dropped: CPU run)
try:  # scaffolding
    layer_domain_cpu = jax.jit(LayerDomain, device=cpu_device)(heights, reduced_gravities, correction=False)
    _report({"jit(LayerDomain)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
