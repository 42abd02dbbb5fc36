# source: https://github.com/darrenjw/jax-smfsb/blob/71374b1235cb3ef2fe77d12b4f5ebd636116532c/dsmts/dsmts.py
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: test_model calls jsmfsb.sim_time_series (which builds a fresh @jit advance and lax.scan on each call) from inside the body of an outer lax.scan over random keys, so it is traced once as part of the outer scan and the whole test compiles once.

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
# --- darrenjw/jax-smfsb @71374b1: src/jsmfsb/spn.py (Spn.__init__, step_gillespie), models.py (bd), sim.py (sim_time_series, sim_sample); docstrings cut ---
import numpy as np
import jax
from jax import jit
import jax.numpy as jnp
import jax.lax as jl


class Spn:
    def __init__(self, n, t, pre, post, h, m):
        self.n = n  # species names
        self.t = t  # reaction names
        self.pre = jnp.array(pre).astype(jnp.float32)
        self.post = jnp.array(post).astype(jnp.float32)
        self.h = h  # hazard function
        self.m = jnp.array(m).astype(jnp.float32)  # initial marking

    def step_gillespie(self, min_haz=1e-10, max_haz=1e07):
        sto = (self.post - self.pre).T
        u, v = sto.shape

        @jit
        def advance(state):
            key, xo, x, t = state
            h = self.h(x, t)
            h0 = jnp.sum(h)
            key, k1, k2 = jax.random.split(key, 3)
            t = jnp.where(h0 > max_haz, 1e30, t)
            t = jnp.where(h0 < min_haz, 1e30, t + jax.random.exponential(k1) / h0)
            j = jax.random.choice(k2, v, p=h / h0)
            xn = jnp.add(x, sto[:, j])
            return (key, x, xn, t)

        @jit
        def step(key, x0, t0, deltat):
            t = t0
            x = x0
            termt = t0 + deltat
            key, x, xn, t = jl.while_loop(
                lambda state: state[3] < termt, advance, (key, x, x, t)
            )
            return x

        return step


def bd(th=[1, 1.1]):
    return Spn(
        ["X"],
        ["Birth", "Death"],
        [[1], [1]],
        [[2], [0]],
        lambda x, t: jnp.array([th[0] * x[0], th[1] * x[0]]),
        [100],
    )



class models:  # scaffolding: module namespace
    bd = staticmethod(bd)


def sim_time_series(key, x0, t0, tt, dt, step_fun):
    n = int((tt - t0) // dt)
    keys = jax.random.split(key, n)

    @jit
    def advance(state, key):
        x, t = state
        x = step_fun(key, x, t, dt)
        t = t + dt
        return (x, t), x

    _, mat = jl.scan(advance, (x0, t0), keys)
    return jnp.insert(mat, 0, x0, 0)


def sim_sample(key, n, x0, t0, deltat, step_fun, batch_size=None):
    keys = jax.random.split(key, n)
    mat = jl.map(lambda k: step_fun(k, x0, t0, deltat), keys, batch_size=batch_size)
    return mat


class jsmfsb:  # scaffolding: package namespace
    models = models
    sim_time_series = staticmethod(sim_time_series)
    sim_sample = staticmethod(sim_sample)


# --- stand-ins for the DSMTS data files (scaffolding) ---
def _read_csv(path):  # scaffolding: dsmts-001-01 is birth-death, x0=100, birth 0.1, death 0.11
    t = jnp.arange(51.0)[:, None]
    if path.endswith("-mean.csv"):
        return 100.0 * jnp.exp(-0.01 * t)
    return jnp.sqrt(100.0 * (0.21 / 0.01) * jnp.exp(-0.01 * t) * (1 - jnp.exp(-0.01 * t))) + 1e-3


def _mod_to_spn(model_file):  # scaffolding: stands in for parsing stochastic/00001/dsmts-001-01.mod
    return models.bd([0.1, 0.11])


# --- dsmts/dsmts.py ---
import jax.numpy as jnp
def test_model(n, file_stem):
    model_file = file_stem + ".mod"
    mean_file = file_stem + "-mean.csv"
    sd_file = file_stem + "-sd.csv"
    mean = _read_csv(mean_file)  # scaffolding: pd.read_csv(mean_file).to_numpy()[:, 1:]
    mean = jnp.array(mean).astype(jnp.float32)
    sd = _read_csv(sd_file)  # scaffolding: pd.read_csv(sd_file).to_numpy()[:, 1:]
    sd = jnp.array(sd).astype(jnp.float32)
    spn = _mod_to_spn(model_file)  # scaffolding: jsmfsb.mod_to_spn(model_file)
    step = spn.step_gillespie()  # testing the exact simulator
    u = len(spn.n)
    sx0 = jnp.zeros((51, u))
    sxx0 = jnp.zeros((51, u))
    state0 = [sx0, sxx0]

    def update(state, key):
        [sx0, sxx0] = state
        out = jsmfsb.sim_time_series(key, spn.m, 0, 50, 1, step)
        sx = sx0 + out
        si = out - mean
        sxx = sxx0 + (si * si)
        return ([sx, sxx], 0)

    k0 = jax.random.key(42)
    keys = jax.random.split(k0, n)
    state, _ = jax.lax.scan(update, state0, keys)
    [sx, sxx] = state
    sample_mean = sx / n
    z_scores = jnp.sqrt(n) * (sample_mean - mean) / sd
    sts = sxx / n
    y_scores = (sts / (sd * sd) - 1) * jnp.sqrt(n / 2)
    fails = jnp.array([jnp.sum(abs(z_scores) > 3), jnp.sum(abs(y_scores) > 5)])
    if jnp.sum(fails) > 0:
        print(str(fails) + " FAILS for " + file_stem)
        print(sample_mean)
        print(z_scores)
        print(sts)
        print(y_scores)
    return fails


# (the script's __main__ runs test_model(1000, ...) on three DSMTS models; one model, fewer samples here)
print(test_model(200, "stochastic/00001/dsmts-001-01"))  # scaffolding: N 1000->200, first model only
_report({"jit(scan)", "jit(advance)"}, 1)  # scaffolding
