# source: https://github.com/jejjohnson/jaxsw/blob/589e454d172e980e650c4d9e3af7fba917cc0c8b/notebooks/dev/eman/QG/multilayer_qg.ipynb
# expect: unhashable-static at line 188
# runtime: ERROR ValueError
# why: rhs_time_step is jitted with static_argnames=("params", "args"), and args is a QGARGS equinox Module whose fields (height matrix, domain, forcing, Helmholtz matrices) hold JAX arrays; hashing it as a static argument raises ValueError on the first call under jax 0.10.2 / equinox 0.13.

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
# (notebook notebooks/dev/eman/QG/multilayer_qg.ipynb flattened: cells 1, 6, 7, 10, 31, 32, 51, 52; the
#  jaxsw model module qg_louis.py (imported as F_qgml / F_louis) is inlined below where the notebook uses it)
import jax
import jax.numpy as jnp
import numpy as np
import equinox as eqx
import typing as tp
from jaxtyping import Array

jax.config.update("jax_enable_x64", True)


class F_louis:  # scaffolding: namespace standing in for `from jaxsw._src.models import qg_louis as F_louis`
    class PDEParams(tp.NamedTuple):
        f0: float = 9.375e-5  # coriolis (s^-1)
        beta: float = 1.754e-11  # coriolis gradient (m^-1 s^-1)
        tau0: float = 2.0e-5  # wind stress magnitude m/s^2
        y0: float = 2400000.0  # m
        a_2: float = 0.0  # laplacian diffusion coef (m^2/s)
        a_4: float = 5.0e11  # LR # 2.0e9 # HR
        bcco: float = 0.2  # boundary condition coef. (non-dim.)
        delta_ek: float = 2.0  # eckman height (m)

        @property
        def zfbc(self):
            return self.bcco / (1.0 + 0.5 * self.bcco)

    class Domain(eqx.Module):
        nx: int = eqx.static_field()
        ny: int = eqx.static_field()
        Lx: int = eqx.static_field()
        Ly: int = eqx.static_field()
        dx: float = eqx.static_field()
        dy: float = eqx.static_field()
        x: Array = eqx.static_field()
        y: Array = eqx.static_field()

        def __init__(self, nx, ny, Lx, Ly):
            self.Lx = Lx
            self.Ly = Ly
            self.nx = nx
            self.ny = ny
            self.dx = Lx / (nx - 1)
            self.dy = Ly / (ny - 1)

            X = jnp.linspace(0, Lx, nx)
            Y = jnp.linspace(0, Ly, ny)
            self.x, self.y = jnp.meshgrid(X, Y, indexing="ij")

    @staticmethod
    def create_qg_multilayer_mat(heights, reduced_gravities):
        num_heights = len(heights)
        A = np.zeros((num_heights, num_heights))
        A[0, 0] = 1.0 / (heights[0] * reduced_gravities[0])
        A[0, 1] = -1.0 / (heights[0] * reduced_gravities[0])
        for i in range(1, num_heights - 1):
            A[i, i - 1] = -1.0 / (heights[i] * reduced_gravities[i - 1])
            A[i, i] = (
                1.0 / heights[i] * (1 / reduced_gravities[i] + 1 / reduced_gravities[i - 1])
            )
            A[i, i + 1] = -1.0 / (heights[i] * reduced_gravities[num_heights - 2])
        A[-1, -1] = 1.0 / (heights[num_heights - 1] * reduced_gravities[num_heights - 2])
        A[-1, -2] = -1.0 / (heights[num_heights - 1] * reduced_gravities[num_heights - 2])
        return A

    @staticmethod
    def compute_layer_to_mode_matrices(A):
        lambd_r, R = np.linalg.eig(A)  # scaffolding: jnp.linalg.eig in the module
        _, L = np.linalg.eig(A.T)
        lambd, R, L = lambd_r.real, R.real, L.real
        Cl2m = np.diag(1.0 / np.diag(L.T @ R)) @ L.T
        Cm2l = R
        return lambd, -Cl2m, -Cm2l


class MLQGHeightMatrix(eqx.Module):
    heights: Array = eqx.static_field()
    reduced_gravities: Array = eqx.static_field()
    A: Array = eqx.static_field()
    lambd: Array = eqx.static_field()
    A_layer_2_mode: Array = eqx.static_field()
    A_mode_2_layer: Array = eqx.static_field()

    def __init__(self, heights: tp.List[float], reduced_gravities: tp.List[float]):
        # check input values
        assert len(heights) > 1 and len(reduced_gravities) > 1
        assert len(heights) - 1 == len(reduced_gravities)

        # create matrix
        A = F_louis.create_qg_multilayer_mat(
            heights=heights, reduced_gravities=reduced_gravities
        )

        # create layer to mode matrices
        lambd, C_layer_2_mat, C_mat_2_layer = F_louis.compute_layer_to_mode_matrices(A)

        self.heights = jnp.asarray(heights)
        self.reduced_gravities = jnp.asarray(reduced_gravities)
        self.A = jnp.asarray(A)
        self.lambd = jnp.asarray(lambd)
        self.A_layer_2_mode = jnp.asarray(C_layer_2_mat)
        self.A_mode_2_layer = jnp.asarray(C_mat_2_layer)

    def __call__(self):
        return self.A


class QGARGS(eqx.Module):
    A_mat: MLQGHeightMatrix
    domain: F_louis.Domain
    wind_forcing: Array = eqx.static_field()
    helmoltz_dst: Array = eqx.static_field()
    alpha_matrix: Array = eqx.static_field()
    homogeneous_sol: Array = eqx.static_field()


def rhs_time_step(q, p, params, args: QGARGS):  # scaffolding: stand-in for qg_louis.rhs_time_step (same signature)
    dq_f0 = jnp.einsum("ij,jkl->ikl", args.A_mat.A_layer_2_mode, q) * params.f0
    dp = jnp.einsum("ij,jkl->ikl", args.A_mat.A_mode_2_layer, p) / args.domain.dx
    return dq_f0, dp


F_louis.MLQGHeightMatrix = MLQGHeightMatrix  # scaffolding
F_louis.QGARGS = QGARGS  # scaffolding
F_louis.rhs_time_step = rhs_time_step  # scaffolding
F_louis.pressure_to_vorticity = lambda pressure, A, domain, params: pressure / params.f0  # scaffolding
F_qgml = F_louis  # cell 1: both names import jaxsw._src.models.qg_louis


def print_debug_quantity(quantity, name=""):  # cell 2 (loguru logger replaced by print)
    print(f"{name}: {quantity.shape} | {np.min(quantity):.6e} | {np.max(quantity):.6e}")


# cell 6
a_4 = 5.0e11  # 2.0e9 #
params = F_louis.PDEParams(a_4=a_4)
# cell 7
# Low Resolution
Nx, Ny = 97, 121
Lx, Ly = 3840.0e3, 4800.0e3
domain = F_louis.Domain(nx=Nx, ny=Ny, Lx=Lx, Ly=Ly)
# cell 10
heights = [350.0, 750.0, 2900.0]
num_heights = len(heights)
reduced_gravities = [0.025, 0.0125]
A_mat = F_qgml.MLQGHeightMatrix(heights, reduced_gravities)
# scaffolding: cells 15-24 (DST Helmholtz matrices, homogeneous solutions, alpha matrix, wind forcing) replaced by arrays of the same shapes
helmoltz_dst_mat = jnp.ones((3, Nx - 2, Ny - 2))  # scaffolding
homogeneous_sol = jnp.ones((2, Nx, Ny))  # scaffolding
alpha_matrix = jnp.ones((2, 2))  # scaffolding
wind_forcing = jnp.zeros((Nx - 2, Ny - 2))  # scaffolding
# cell 51
rhs_time_step_jitted = jax.jit(F_qgml.rhs_time_step, static_argnames=("params", "args"))


# vector field
def vector_field(t, state, args):
    q, p = state

    q, p = rhs_time_step_jitted(q, p, params, args)

    return (q, p)


p = jnp.zeros_like(domain.x)  # scaffolding: the notebook loads ./p_380yrs_HRDS.npy when domain.nx == 97
p = jnp.broadcast_to(p, (3,) + p.shape)  # scaffolding: einops.repeat(p, "i j -> 3 i j") (einops not installed)

print_debug_quantity(p, "PRESSURE")
q = F_qgml.pressure_to_vorticity(p, A_mat(), domain, params)
print_debug_quantity(q, "VORTICITY")

state = (q, p)
args = F_qgml.QGARGS(
    A_mat=A_mat,
    domain=domain,
    wind_forcing=wind_forcing,
    helmoltz_dst=helmoltz_dst_mat,
    alpha_matrix=alpha_matrix,
    homogeneous_sol=homogeneous_sol,
)
# cell 52
try:  # scaffolding
    dq_f0, dp = vector_field(0, state, args)
    print_debug_quantity(dp, "dp")
    print_debug_quantity(dq_f0, "dq_f0")
    _report({"jit(rhs_time_step)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
