# source: https://github.com/RadostW/stochastic/commit/d7f42c617618cd7a1728c4290683cd83e97c17e0
# expect: trace-time-error at line 39
# runtime: ERROR NonConcreteBooleanIndexError
# why: make_D_mat's helper take() masks out-of-range Fourier indices with a boolean index (.at[..., illegal].set); under the solver's lax.scan/jit the mask is traced, so tracing raises NonConcreteBooleanIndexError (the commit replaces it with arithmetic masking).

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

def make_D_mat(eta, zeta):
    assert eta.ndim == 2
    assert eta.shape == zeta.shape
    m, p = jnp.shape(eta)

    def take(tensor, idx, fill = 0):
        illegal = jnp.logical_or(idx > p,idx < 1)
        return tensor[..., idx-1].at[..., illegal].set(fill)

    # first term
    # summands shape: (m, m, m, p, p)
    
    l = jnp.arange(1, p+1).reshape(p, 1)
    r = jnp.arange(1, p+1).reshape(1, p)
    
    summands_sum = 1/(r*(l+r))*(
        zeta.reshape(1, m, 1, p, 1)*(
            take(zeta, l+r).reshape(1, 1, m, p, p) * eta.reshape(m, 1, 1, 1, p) 
            - zeta.reshape(1, 1, m, 1, p) * take(eta, l+r).reshape(m, 1, 1, p, p)
        ) 
        + eta.reshape(1, m, 1, p, 1)*(
            zeta.reshape(m, 1, 1, 1, p) * take(zeta, l+r).reshape(1, 1, m, p, p) 
            + eta.reshape(m, 1, 1, 1, p) * take(eta, l+r).reshape(1, 1, m, p, p)
        )
    )
    D_mat_sum = summands_sum.sum(axis=(-2, -1))

    # second term
    # summands shape: (m, m, m, p, 2p)
    
    l = jnp.arange(1, p+1).reshape(p, 1)
    r = jnp.arange(1, 2*p+1).reshape(1, 2*p) # note rectangular sum

    summands_diff_lower = (r<l) * 1.0/(
        r*take(r,l-r,fill=1.0)
        )*(
        zeta.reshape(1, m, 1, p, 1)*(
            take(zeta,r).reshape(m, 1, 1, 1, 2*p) * take(eta, l-r).reshape(1, 1, m, p, 2*p)
            + take(eta,r).reshape(m, 1, 1, 1, 2*p) * take(zeta, l-r).reshape(1, 1, m, p, 2*p) 

        ) 
        - eta.reshape(1, m, 1, p, 1)*(
            take(zeta,r).reshape(m, 1, 1, 1, 2*p) * take(zeta, l-r).reshape(1, 1, m, p, 2*p) 
            - take(eta,r).reshape(m, 1, 1, 1, 2*p) * take(eta, l-r).reshape(1, 1, m, p, 2*p)
        )
    )
    D_mat_diff_lower = summands_diff_lower.sum(axis=(-2, -1))


    # third term
    # summands shape: (m, m, m, p, 2p)

    summands_diff_upper = (r>l) * 1.0/(
        r*take(r,r-l,fill=1.0)
        )*(
        zeta.reshape(1, m, 1, p, 1)*(
            take(zeta,r).reshape(m, 1, 1, 1, 2*p) * take(eta, r-l).reshape(1, 1, m, p, 2*p)
            - take(eta,r).reshape(m, 1, 1, 1, 2*p) * take(zeta, r-l).reshape(1, 1, m, p, 2*p) 

        ) 
        + eta.reshape(1, m, 1, p, 1)*(
            take(zeta,r).reshape(m, 1, 1, 1, 2*p) * take(zeta, r-l).reshape(1, 1, m, p, 2*p) 
            + take(eta,r).reshape(m, 1, 1, 1, 2*p) * take(eta, r-l).reshape(1, 1, m, p, 2*p)
        )
    )
    D_mat_diff_upper = summands_diff_upper.sum(axis=(-2, -1))

    
    D_mat = 1/(jnp.pi**2*2**(5/2)) * (-D_mat_sum + D_mat_diff_lower + D_mat_diff_upper)
    return D_mat

vectorized_make_D_mat = jax.vmap(make_D_mat)             


def get_wiener_integrals(key, steps=1, noise_terms=1, scheme="wagner_platen", p=10):  # (pychastic/vectorized_I_generation.py, 'wagner_platen' branch trimmed to the D matrix)
    key1, key2, key3, key4, key5 = jax.random.split(key, num=5)

    # Notation of Kloeden-Platen (10.4.7) and onwards
    zeta = jax.random.normal(key2, shape=(steps, p, noise_terms))
    eta = jax.random.normal(key3, shape=(steps, p, noise_terms))

    D_mat = vectorized_make_D_mat(eta.transpose((0, 2, 1)), zeta.transpose((0, 2, 1)))
    return D_mat


# scaffolding: SDESolver.solve draws the Wiener integrals inside lax.scan over chunks, i.e. under tracing
def chunk(carry, key):  # scaffolding
    return carry, get_wiener_integrals(key, steps=4, noise_terms=2, p=5)  # scaffolding


@jax.jit  # scaffolding
def solve_chunks(keys):  # scaffolding
    return jax.lax.scan(chunk, 0.0, keys)[1]  # scaffolding


try:  # scaffolding
    for seed in range(3):  # scaffolding
        D = solve_chunks(jax.random.split(jax.random.PRNGKey(seed), 3))
    _report({"jit(solve_chunks)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
