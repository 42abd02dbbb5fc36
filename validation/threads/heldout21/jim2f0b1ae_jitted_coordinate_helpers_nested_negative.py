# source: https://github.com/kazewong/jim/commit/2f0b1aeee50b156160e816e9dc78b6f58f5f80f7
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: every coordinate helper is decorated with @jit and they call one another inside the jitted posterior, but inner jits are inlined into the outer trace, so the posterior compiles once for three same-shape batches.
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


import jax.numpy as jnp
from jax import jit
from jax.scipy.integrate import trapezoid
from jax.scipy.special import i0e
from jaxtyping import Array, Float


@jit
def inner_product(
    h1: Float[Array, " n_sample"],
    h2: Float[Array, " n_sample"],
    frequency: Float[Array, " n_sample"],
    psd: Float[Array, " n_sample"],
) -> Float:
    # psd_interp = jnp.interp(frequency, psd_frequency, psd)
    df = frequency[1] - frequency[0]
    integrand = jnp.conj(h1) * h2 / psd
    return 4.0 * jnp.real(trapezoid(integrand, dx=df))


@jit
def m1m2_to_Mq(m1: Float, m2: Float):
    M_tot = jnp.log(m1 + m2)
    q = jnp.log(m2 / m1) - jnp.log(1 - m2 / m1)
    return M_tot, q


@jit
def Mq_to_m1m2(trans_M_tot: Float, trans_q: Float):
    M_tot = jnp.exp(trans_M_tot)
    q = 1.0 / (1 + jnp.exp(-trans_q))
    m1 = M_tot / (1 + q)
    m2 = m1 * q
    return m1, m2


@jit
def Mc_q_to_m1m2(Mc: Float, q: Float) -> tuple[Float, Float]:
    eta = q / (1 + q) ** 2
    M_tot = Mc / eta ** (3.0 / 5)
    m1 = M_tot / (1 + q)
    m2 = m1 * q
    return m1, m2


@jit
def ra_dec_to_theta_phi(ra: Float, dec: Float, gmst: Float) -> tuple[Float, Float]:
    phi = ra - gmst
    theta = jnp.pi / 2 - dec
    return theta, phi


@jit
def euler_rotation(delta_x: tuple[Float, Float, Float]):
    norm = jnp.power(
        delta_x[0] * delta_x[0] + delta_x[1] * delta_x[1] + delta_x[2] * delta_x[2], 0.5
    )
    cos_beta = delta_x[2] / norm
    sin_beta = jnp.power(1 - cos_beta**2, 0.5)

    alpha = jnp.atan2(-delta_x[1] * cos_beta, delta_x[0])
    gamma = jnp.atan2(delta_x[1], delta_x[0])

    cos_alpha = jnp.cos(alpha)
    sin_alpha = jnp.sin(alpha)
    cos_gamma = jnp.cos(gamma)
    sin_gamma = jnp.sin(gamma)

    rotation = jnp.array(
        [
            [
                cos_alpha * cos_beta * cos_gamma - sin_alpha * sin_gamma,
                -sin_alpha * cos_beta * cos_gamma - cos_alpha * sin_gamma,
                sin_beta * cos_gamma,
            ],
            [
                cos_alpha * cos_beta * sin_gamma + sin_alpha * cos_gamma,
                -sin_alpha * cos_beta * sin_gamma + cos_alpha * cos_gamma,
                sin_beta * sin_gamma,
            ],
            [-cos_alpha * sin_beta, sin_alpha * sin_beta, cos_beta],
        ]
    )

    return rotation


@jit
def zenith_azimuth_to_theta_phi(
    zenith: Float, azimuth: Float, delta_x: tuple[Float, Float, Float]
) -> tuple[Float, Float]:
    sin_azimuth = jnp.sin(azimuth)
    cos_azimuth = jnp.cos(azimuth)
    sin_zenith = jnp.sin(zenith)
    cos_zenith = jnp.cos(zenith)

    rotation = euler_rotation(delta_x)

    theta = jnp.acos(
        rotation[2][0] * sin_zenith * cos_azimuth
        + rotation[2][1] * sin_zenith * sin_azimuth
        + rotation[2][2] * cos_zenith
    )
    phi = jnp.fmod(
        jnp.atan2(
            rotation[1][0] * sin_zenith * cos_azimuth
            + rotation[1][1] * sin_zenith * sin_azimuth
            + rotation[1][2] * cos_zenith,
            rotation[0][0] * sin_zenith * cos_azimuth
            + rotation[0][1] * sin_zenith * sin_azimuth
            + rotation[0][2] * cos_zenith,
        )
        + 2 * jnp.pi,
        (2 * jnp.pi),
    )
    return theta, phi


@jit
def theta_phi_to_ra_dec(theta: Float, phi: Float, gmst: Float) -> tuple[Float, Float]:
    ra = phi + gmst
    dec = jnp.pi / 2 - theta
    return ra, dec


@jit
def zenith_azimuth_to_ra_dec(
    zenith: Float, azimuth: Float, gmst: Float, delta_x: tuple[Float, Float, Float]
) -> tuple[Float, Float]:
    theta, phi = zenith_azimuth_to_theta_phi(zenith, azimuth, delta_x)
    ra, dec = theta_phi_to_ra_dec(theta, phi, gmst)
    ra = ra % (2 * jnp.pi)
    return ra, dec


# scaffolding: EarthFrame's sky-location transforms (src/jimgw/prior.py), applied inside a jitted posterior as jim's sampler does
import jax  # scaffolding


class EarthFrame:  # scaffolding: cut down to the transforms
    def __init__(self, gmst, delta_x):  # scaffolding
        self.gmst = gmst
        self.delta_x = delta_x
        self.transforms = {
            "azimuth": (
                "ra",
                lambda params: zenith_azimuth_to_ra_dec(
                    params["zenith"],
                    params["azimuth"],
                    gmst=self.gmst,
                    delta_x=self.delta_x,
                )[0],
            ),
            "zenith": (
                "dec",
                lambda params: zenith_azimuth_to_ra_dec(
                    params["zenith"],
                    params["azimuth"],
                    gmst=self.gmst,
                    delta_x=self.delta_x,
                )[1],
            ),
        }


prior = EarthFrame(1.2, jnp.array([-3.0e6, 1.0e6, 2.0e6]))  # scaffolding


@jax.jit  # scaffolding
def posterior(params):  # scaffolding
    out = {new: fn(params) for _, (new, fn) in prior.transforms.items()}  # scaffolding
    return jnp.sum(jnp.cos(out["dec"]) * jnp.sin(out["ra"]))  # scaffolding


key = jax.random.PRNGKey(0)  # scaffolding
for i in range(3):  # scaffolding
    k1, k2 = jax.random.split(jax.random.fold_in(key, i))  # scaffolding
    params = {"zenith": jax.random.uniform(k1, (100,)), "azimuth": jax.random.uniform(k2, (100,))}  # scaffolding
    posterior(params).block_until_ready()  # scaffolding
_report({"jit(posterior)"}, 3)  # scaffolding
