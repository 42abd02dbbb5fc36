# source: https://github.com/BeeGass/HiPPO-Jax/commit/37091827583d5d21d7d8d83686fc0a8b4d70cddf
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: after the commit eval_matrix is built with jax.scipy.special.lpmn_values, a traceable JAX function, so the jitted apply compiles once for 2 calls.

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

## import packages
import jax
import jax.numpy as jnp

from flax import linen as nn

from scipy import special as ss


# src/models/hippo/hippo.py after the commit (docstrings cut; make_HiPPO cut to its LegS branch)
def make_HiPPO(
    N, v="nv", measure="legs", lambda_n=1, fourier_type="fru", alpha=0, beta=1
):
    A = None
    B = None
    if measure == "legs":
        if v == "nv":
            A, B = build_LegS(N=N)
        else:
            A, B = build_LegS_V(N=N)

    else:
        raise ValueError("Invalid HiPPO type")

    A_copy = A.copy()
    B_copy = B.copy()

    return jnp.array(A_copy), B_copy


# Scaled Legendre (LegS) vectorized
def build_LegS_V(N):
    q = jnp.arange(N, dtype=jnp.float64)
    k, n = jnp.meshgrid(q, q)
    pre_D = jnp.sqrt(jnp.diag(2 * q + 1))
    B = D = jnp.diag(pre_D)[:, None]

    A_base = (-jnp.sqrt(2 * n + 1)) * jnp.sqrt(2 * k + 1)
    case_2 = (n + 1) / (2 * n + 1)

    A = jnp.where(n > k, A_base, 0.0)  # if n > k, then A_base is used, otherwise 0
    A = jnp.where(
        n == k, (A_base * case_2), A
    )  # if n == k, then A_base is used, otherwise A

    return A, B


# Scaled Legendre (LegS), non-vectorized
def build_LegS(N):
    q = jnp.arange(
        N, dtype=jnp.float64
    )  # q represents the values 1, 2, ..., N each column has
    k, n = jnp.meshgrid(q, q)
    r = 2 * q + 1
    M = -(jnp.where(n >= k, r, 0) - jnp.diag(q))  # represents the state matrix M
    D = jnp.sqrt(
        jnp.diag(2 * q + 1)
    )  # represents the diagonal matrix D $D := \text{diag}[(2n+1)^{\frac{1}{2}}]^{N-1}_{n=0}$
    A = D @ M @ jnp.linalg.inv(D)
    B = jnp.diag(D)[:, None]
    B = (
        B.copy()
    )  # Otherwise "UserWarning: given NumPY array is not writeable..." after torch.as_tensor(B)

    return A, B


class HiPPO(nn.Module):
    """
    class that constructs HiPPO model using the defined measure.
    """

    N: int
    max_length: int
    measure: str
    step: float
    GBT_alpha: float
    seq_L: int
    v: str
    lambda_n: float
    fourier_type: str
    alpha: float
    beta: float

    def setup(self):
        A, B = make_HiPPO(
            N=self.N,
            v=self.v,
            measure=self.measure,
            lambda_n=self.lambda_n,
            fourier_type=self.fourier_type,
            alpha=self.alpha,
            beta=self.beta,
        )

        self.A = A
        self.B = B  # .squeeze(-1)
        self.C = jnp.ones((1, self.N)).squeeze(0)
        self.D = jnp.zeros((1,))

        if self.measure == "legt":
            L = self.seq_L
            vals = jnp.arange(0.0, 1.0, L)
            n = jnp.arange(self.N)[:, None]
            x = 1 - 2 * vals
            self.eval_matrix = ss.eval_legendre(n, x).T

        elif self.measure == "legs":
            L = self.max_length
            vals = jnp.linspace(0.0, 1.0, L)
            n = jnp.arange(self.N)[:, None]
            x = 2 * vals - 1
            self.eval_matrix = (
                B[:, None]
                * jax.scipy.special.lpmn_values(
                    m=self.N - 1, n=self.N - 1, z=x, is_normalized=False
                )
            ).T  # ss.eval_legendre(n, x)).T
        else:
            raise ValueError("invalid measure")

    def __call__(self, u, init_state=None, kernel=False):

        if not kernel:
            if init_state is None:
                init_state = jnp.zeros((self.N,))

            Ab, Bb, Cb, Db = self.collect_SSM_vars(
                self.A, self.B, self.C, self.D, u, alpha=self.GBT_alpha
            )
            c_k = self.scan_SSM(Ab, Bb, Cb, Db, u, x0=init_state)[1]
        else:
            Ab, Bb, Cb, Db = self.discretize(
                self.A, self.B, self.C, self.D, step=self.step, alpha=self.GBT_alpha
            )
            c_k = self.causal_convolution(
                u, self.K_conv(Ab, Bb, Cb, Db, L=self.max_length)
            )

        return c_k

    def reconstruct(self, c):
        return (self.eval_matrix @ jnp.expand_dims(c, -1)).squeeze(-1)

    def discretize(self, A, B, C, D, step, alpha=0.5):
        I = jnp.eye(A.shape[0])
        GBT = jnp.linalg.inv(I - (step * alpha * A))
        GBT_A = GBT @ (I + (step * (1 - alpha) * A))
        GBT_B = (step * GBT) @ B

        if alpha > 1:  # Zero-order Hold
            GBT_A = jax.scipy.linalg.expm(step * A)
            GBT_B = (jnp.linalg.inv(A) @ (jax.scipy.linalg.expm(step * A) - I)) @ B

        return GBT_A, GBT_B, C, D

    def collect_SSM_vars(self, A, B, C, D, u, alpha=0.5):
        L = u.shape[0]
        N = A.shape[0]
        assert L == self.seq_L
        assert N == self.N

        Ab, Bb, Cb, Db = self.discretize(A, B, C, D, step=1.0 / L, alpha=alpha)

        return Ab, Bb, Cb, Db

    def scan_SSM(self, Ab, Bb, Cb, Db, u, x0):
        def step(x_k_1, u_k):
            x_k = (Ab @ x_k_1) + (Bb @ u_k)
            y_k = (Cb @ x_k) + (Db @ u_k)

            return x_k, y_k

        return jax.lax.scan(step, x0, u)


# examples/notebooks/notebooks-py/HiPPO.ipynb: the LegS test
N = 8  # scaffolding
L = 16  # scaffolding
key2 = jax.random.PRNGKey(1)  # scaffolding
x = jax.random.uniform(key2, (L, 1))  # scaffolding: the notebook's random input signal
hippo_LegS_B = HiPPO(
    N=N,
    max_length=L,
    measure="legs",
    step=1.0 / L,
    GBT_alpha=0.5,
    seq_L=L,
    v="v",
    lambda_n=1.0,
    fourier_type="fru",
    alpha=0.0,
    beta=1.0,
)  # Bryan's

params = hippo_LegS_B.init(key2, x)

apply_jit = jax.jit(hippo_LegS_B.apply)  # scaffolding: rnn.ipynb jits value_and_grad of a loss that applies HiPPO
try:  # scaffolding
    for _ in range(2):  # scaffolding
        c_legs = apply_jit(params, x)  # scaffolding
    print(c_legs.shape)  # scaffolding
    _report({"jit(apply)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
