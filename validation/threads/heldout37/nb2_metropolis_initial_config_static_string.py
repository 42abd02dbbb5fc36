# source: https://github.com/rpivi/JAX_Miscellany/blob/273ed3e5677f270614a3c39f94d208ae41445a86/JAX_Metropolis.ipynb
# expect: changing-static at line 121
# runtime: COMPILES 4 CALLS 4
# why: run_simulation takes the starting configuration as a static string (static_argnums=(1, 3, 5)), so each run with a different initial_config is a new static value and a full recompile of the 2000-step scan, although only the starting point differs.

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
# %% cell 0
#simulare con Monte Carlo (Metropolis) una particella soggetta ad un Potenziale Double Well 
#in D dimensioni a contatto termico con un reservoir a temperatura T.
import jax 
import jax.numpy as jnp
import functools

# %% cell 1
#definiamo il potenziale in modo che x1 sia la variabile lenta e x2,...,xD siano le variabili veloci
@jax.jit
def V(x, a=2.0, b=1.0):
    return a * (x[0]**2 - b)**2 + 0.5 * jnp.sum(x[1:]**2)

# %% cell 2
#genera una configurazione iniziale casuale usando una gaussiana standard
@functools.partial(jax.jit, static_argnums=(1,))
def generate_config(key, D):
    key, subkey = jax.random.split(key)
    x = jax.random.normal(subkey, shape=(D,))
    return x, key

# %% cell 3
#genera un numero casuale con una gaussiana standard D dim (per eta: rumore termico)
@functools.partial(jax.jit, static_argnums=(1,))
def generate_normal(key,D):
    key, subkey = jax.random.split(key)
    x = jax.random.normal(subkey, shape=(D,))
    return x, key

#da uniforme:
@jax.jit
def generate_uniform(key):
    key, subkey = jax.random.split(key)
    x = jax.random.uniform(subkey)
    return x, key

# %% cell 4
#funzione di accettazione di Metropolis
@jax.jit
def metropolis_acceptance(delta_E, T):
    A = jnp.where(delta_E <= 0, 1.0, jnp.exp(-delta_E / T))
    return A

#funzione per eseguire un passo di Metropolis
@jax.jit
def metropolis_step(x, key, T, step_size=0.1):
    D = x.shape[0]
    # nuova configurazione proposta
    eta, key = generate_normal(key,D)
    x_proposed = x + step_size * eta
    # calcola la differenza di energia
    delta_E = V(x_proposed) - V(x)
    # accetta o rifiuta la nuova configurazione
    accept_prob = metropolis_acceptance(delta_E, T)
    u, key = generate_uniform(key)
    accept = u < accept_prob
    x_new = jnp.where(accept, x_proposed, x)
    return x_new, key, accept

# %% cell 5
#funzione per eseguire la simulazione
@functools.partial(jax.jit, static_argnums=(1, 3, 5))
def run_simulation(key, D, T, n_steps, step_size=0.1, initial_config="random"):
    x, key = generate_config(key, D)
    if initial_config == "zeros":
        x = jnp.zeros(D)
    if initial_config == "ones":
        x = jnp.ones(D)
    if initial_config == "-ones":
        x = jnp.ones(D) *(-1)

    def body(carry, _):
        x, key, acc = carry
        x, key, accepted = metropolis_step(x, key, T, step_size)
        return (x, key, acc + accepted), x

    (_, _, acceptances), trajectory = jax.lax.scan(
        body, (x, key, 0), None, length=n_steps
    )
    return trajectory, acceptances / n_steps

# %% cell 11
step_size = 0.05  # scaffolding: set in cell 6 of the notebook
#termalizzazione: osserviamo come evolve l'energia media per due config. iniziali diverse
n_steps = 2000  # scaffolding: 200000 in the notebook
D = 2
T = 0.4

key = jax.random.PRNGKey(0)
trajectory1, acceptance_rate1 = run_simulation(key, D, T, n_steps, step_size, "ones")

key = jax.random.PRNGKey(0)
trajectory_1, acceptance_rate_1 = run_simulation(key, D, T, n_steps, step_size, "-ones")

key = jax.random.PRNGKey(0)
trajectoryR, acceptance_rateR = run_simulation(key, D, T, n_steps, step_size, "random")
key = jax.random.PRNGKey(0)  # scaffolding: the fourth start the function offers
trajectoryZ, acceptance_rateZ = run_simulation(key, D, T, n_steps, step_size, "zeros")  # scaffolding
# (plots cut: scaffolding)
_report({"jit(run_simulation)"}, 4)  # scaffolding
