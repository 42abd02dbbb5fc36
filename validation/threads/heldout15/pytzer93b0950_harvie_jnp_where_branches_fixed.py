# source: https://github.com/mvdh7/pytzer/commit/93b09509da94b932929e60defca5ee939d3ffaf8
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The commit's fix: both coefficient tables are arrays and the branch is np.where (jax.numpy) on x, with _Harvie_raw itself jitted; jit(Harvie) compiles once for 2 calls.

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
from jax import numpy as np


# pytzer/unsymmetrical.py (after the commit)
@jax.jit
def _Harvie_raw(x):
    """Evaluate unsymmetrical mixing function and its derivative using
    Harvie's method, as described by P91 Ch. 3, pp. 124-125.
    """
    # Values from Table B-1, middle column (akI)
    akI = np.array(
        [
            -0.000000000010991,
            -0.000000000002563,
            0.000000000001943,
            0.000000000046333,
            -0.000000000050847,
            -0.000000000821969,
            0.000000001229405,
            0.000000013522610,
            -0.000000025267769,
            -0.000000202099617,
            0.000000396566462,
            0.000002937706971,
            -0.000004537895710,
            -0.000045036975204,
            0.000036583601823,
            0.000636874599598,
            0.000388260636404,
            -0.007299499690937,
            -0.029779077456514,
            -0.060076477753119,
            1.925154014814667,
        ]
    )
    # Values from Table B-1, final column (akII)
    akII = np.array(
        [
            0.000000000237816,
            -0.000000002849257,
            -0.000000006944757,
            0.000000004558555,
            0.000000080779570,
            0.000000216991779,
            -0.000000250453880,
            -0.000003548684306,
            -0.000004583768938,
            0.000034682122751,
            0.000087294451594,
            -0.000242107641309,
            -0.000887171310131,
            0.001130378079086,
            0.006519840398744,
            -0.001668087945272,
            -0.036552745910311,
            -0.028796057604906,
            0.150044637187895,
            0.462762985338493,
            0.628023320520852,
        ]
    )
    x_vec = np.full_like(akI, x)
    ak = np.where(x_vec < 1, akI, akII)
    z = np.where(
        x < 1, 4 * x ** 0.2 - 2, 40 / 9 * x ** -0.1 - 22 / 9  # Eq. (B-21)  # Eq. (B-25)
    )
    dz_dx = np.where(
        x < 1, 4 * x ** -0.8 / 5, -4 * x ** -1.1 / 9  # Eq. (B-22)  # Eq. (B-26)
    )
    b2, b1, b0 = 0.0, 0.0, 0.0
    d2, d1, d0 = 0.0, 0.0, 0.0
    for a in ak:
        b2 = b1 * 1
        b1 = b0 * 1
        d2 = d1 * 1
        d1 = d0 * 1
        b0 = z * b1 - b2 + a  # Eq. (B-23/27)
        d0 = b1 + z * d1 - d2  # Eq. (B-24/28)
    J = 0.25 * x - 1 + 0.5 * (b0 - b2)  # Eq. (B-29)
    Jp = 0.25 + 0.5 * dz_dx * (d0 - d2)  # Eq. (B-30)
    return J, Jp


@jax.custom_jvp
def Harvie(x):
    """Evaluate unsymmetrical mixing function using Harvie's method,
    as described by P91 Ch. 3, pp. 124-125.
    """
    return _Harvie_raw(x)[0]


@Harvie.defjvp
def _Harvie_jvp(primals, tangents):
    (x,) = primals
    (x_dot,) = tangents
    ans, ans_dot = _Harvie_raw(x)
    return ans, ans_dot * x_dot



# scaffolding: evaluate the mixing function under jit, as pytzer's jitted activity model does
Harvie_jit = jax.jit(Harvie)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for x in (0.5, 2.0):  # scaffolding: one value per branch
        J = Harvie_jit(x)
        calls += 1
    _report({"jit(Harvie)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
