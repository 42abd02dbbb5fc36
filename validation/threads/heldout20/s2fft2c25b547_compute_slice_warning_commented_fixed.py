# source: https://github.com/astro-informatics/s2fft/commit/2c25b547662103cbc7e3b7d3a22626b5516547c8
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit comments the warning out; compute_slice still compiles once for the 3 calls.

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


# s2fft/wigner/turok_jax.py (docstrings left out)
import numpy as np
import jax.lax as lax
from jax import jit
import jax.numpy as jnp
from functools import partial
from warnings import warn

@partial(jit, static_argnums=(2, 3, 4))
def compute_slice(beta: float, el: int, L: int, mm: int,
positive_m_only: bool = False) -> jnp.ndarray:
    if positive_m_only and mm != 0:
        positive_m_only = False

        # Commenting the following warning for now, as its output is probably lost in the compiled version
        # (side-effects don't get traced, see https://jax.readthedocs.io/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions)
        #
        # warn(
        #     "Reality acceleration only supports spin 0 fields. "
        #     + "Defering to complex transform."
        # )

    dl = jnp.zeros(
        2 * L - 1,
        dtype=jnp.float64)

    dl = lax.cond(
        jnp.abs(beta) < 1e-10,
        lambda x: _north_pole(x, el, L, mm),
        lambda x: x,
        dl
    )
    dl = lax.cond(
        jnp.abs(beta - jnp.pi) < 1e-10,
        lambda x: _south_pole(x, el, L, mm),
        lambda x: x,
        dl,
    )
    dl = lax.cond(
        el == 0,
        lambda x: _el0(x, L),
        lambda x: x,
        dl
    )
    dl = lax.cond(
        jnp.any(dl),
        lambda x: x,
        lambda x: _compute_quarter_slice(x, beta, el, L, mm, positive_m_only),
        dl,
    )
    return reindex(dl, el, L, mm)

@partial(jit, static_argnums=(3, 4,5))
def _compute_quarter_slice(
    dl: jnp.array, beta: float, el: int, L: int, mm: int, positive_m_only: bool = False
) -> jnp.ndarray:
    # These constants handle overflow by retrospectively renormalising
    big_const = 1e10
    bigi = 1.0 / big_const
    lbig = jnp.log(big_const)

    # Trigonometric constant adopted throughout
    c = jnp.cos(beta)
    s = jnp.sin(beta)
    t = jnp.tan(-beta / 2.0)
    lt = jnp.log(jnp.abs(t))
    c2 = jnp.cos(beta / 2.0)
    omc = 1.0 - c

    # Indexing boundaries
    half_slices = jnp.array([el + mm + 1, el - mm + 1], dtype=jnp.int64)
    lims = np.array([0, -1], dtype=np.int64)

    # Vectors with indexing -L < m < L adopted throughout

    # Populate vectors for first row
    def log_first_row_iteration(log_first_row_i_minus_1, i):
        ratio = (2 * el + 2 - i - 1) / i
        log_first_row_i = log_first_row_i_minus_1 + jnp.log(ratio) / 2 + lt
        return log_first_row_i, log_first_row_i

    log_first_row_0 = 2 * el * jnp.log(abs(c2))
    _, log_first_row_1_to_L_plus_abs_mm = lax.scan(
        log_first_row_iteration, log_first_row_0, np.arange(1, L + abs(mm))
    )
    log_first_row = jnp.concatenate(
        (
            jnp.atleast_1d(log_first_row_0),
            log_first_row_1_to_L_plus_abs_mm,
            jnp.zeros(L + 1 - abs(mm)),
        )
    )

    sign = (t / abs(t)) ** ((half_slices - 1) % 2)

    # Initialising coefficients cp(m)= cplus(l-m).
    m = jnp.arange(L)
    cpi = jnp.concatenate((2 / ((m + 1) * (2 * el - m)) ** 0.5, jnp.zeros(1)))
    cp2 = jnp.concatenate((jnp.zeros(1), cpi[1:] / cpi[:-1]))

    # Use Turok & Bucher recursion to evaluate a single half row
    # Then evaluate the negative half row and reflect using
    # Wigner-d symmetry relation.

    em = jnp.arange(1, L + 1)
    lrenorm = jnp.zeros(2, dtype=jnp.float64)

    # Static array of indices for first dimension of dl array
    indices = jnp.arange(2 * L - 1)

    for i in ([1] if positive_m_only else range(2)):

            sgn = (-1) ** (i)

            # Initialise the vector
            dl = dl.at[lims[i]].set(1.0)
            lamb = ((el + 1) * omc - half_slices[i] + c) / s
            dl = dl.at[lims[i] + sgn].set(lamb * dl[lims[i]] * cpi[0])

            def renorm_iteration(m, dl_lrenorm):
                dl, lrenorm = dl_lrenorm
                lamb = ((el + 1) * omc - half_slices[i] + m * c) / s
                dl = dl.at[lims[i] + sgn * m].set(
                    lamb * cpi[m - 1] * dl[lims[i] + sgn * (m - 1)]
                    - cp2[m - 1] * dl[lims[i] + sgn * (m - 2)]
                )
                condition = dl[lims[i] + sgn * m] > big_const
                lrenorm = lax.cond(
                    condition, lambda x: x.at[i].add(-lbig), lambda x: x, lrenorm
                )
                dl = lax.cond(
                    condition,
                    # multiply first m elements (if i == 0) or last m elements (if i == 1)
                    # of dl array by bigi - use jnp.where rather than directly updating
                    # array using 'in-place' update such as
                    #     dl.at[lims[i]:lims[i] + sgn * (m + 1):sgn].multiply(bigi)
                    # to avoid non-static array slice (due to m dependence) that will raise
                    # an IndexError exception when used with lax.fori_loop
                    lambda x: jnp.where((indices < (m + 1))[::sgn], bigi * x, x),
                    lambda x: x,
                    dl
                )
                return dl, lrenorm

            dl, lrenorm = lax.fori_loop(2, L, renorm_iteration, (dl, lrenorm))

            # Apply renormalisation
            renorm = sign[i] * jnp.exp(log_first_row[half_slices[i] - 1] - lrenorm[i])

            if i == 0:
                dl = dl.at[: L - 1].multiply(renorm)

            if i == 1:
                dl = dl.at[-em].multiply((-1) ** ((mm - em + el + 1) % 2) * renorm)

    return jnp.nan_to_num(dl, neginf=0, posinf=0)

@partial(jit, static_argnums=(2, 3))
def _north_pole(dl, el, L, mm) -> jnp.ndarray:
    dl = dl.at[:].set(0)
    if mm < 0:
        dl = dl.at[el + mm].set(1)
    else:
        dl = dl.at[2 * L - 2 - el + mm].set(1)
    return dl

@partial(jit, static_argnums=(2, 3))
def _south_pole(dl, el, L, mm) -> jnp.ndarray:
    dl = dl.at[:].set(0)
    if mm > 0:
        dl = dl.at[el - mm].set((-1) ** (el + mm))
    else:
        dl = dl.at[2 * L - 2 - el - mm].set((-1) ** (el + mm))
    return dl

@partial(jit, static_argnums=(1))
def _el0(dl, L) -> jnp.ndarray:
    dl = dl.at[:].set(0)
    dl = dl.at[-1].set(1)
    return dl

@partial(jit, static_argnums=(2, 3))
def reindex(dl, el, L, mm) -> jnp.ndarray:
    dl = dl.at[: L - 1].set(jnp.roll(dl, L - el - 1)[: L - 1])
    dl = dl.at[L - 1 :].set(jnp.roll(dl, -(L - el - 1))[L - 1 :])

    m = jnp.arange(-L+1, L+1)
    dl = dl.at[L-1+m].multiply((-1)**((mm - m)%2))

    return dl


import warnings  # scaffolding

L = 8  # scaffolding: one spin-1 slice for three beta values, reality acceleration requested
calls = 0
with warnings.catch_warnings(record=True) as caught:  # scaffolding
    warnings.simplefilter("always")
    for beta in (0.3, 0.7, 1.1):
        dl = compute_slice(beta, 5, L, 1, positive_m_only=True)
        calls += 1
print(f"reality warnings emitted: {sum('Reality' in str(w.message) for w in caught)}")  # scaffolding
_report({"jit(compute_slice)"}, calls)
