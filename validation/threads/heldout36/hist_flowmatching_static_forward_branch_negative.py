# source: https://github.com/wangleiphy/jax-flow-matching/commit/1b88d8a940b1f879a2d11cea75b91f52db7b8b79
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: sample_fn branches with a Python if on forward inside jax.jit and samples a batchsize-sized subset, but both are listed in static_argnums=(2, 3), so alternating forward=True/False compiles exactly one executable per value and reuses them.

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
from jax.experimental import ode
from functools import partial


def make_flow(vec_field_net, div_fn, X0, X1, mxstep=1000):
    
    def sample_x0(key, batchsize):
        idx = jax.random.choice(key, jnp.arange(len(X0)), (batchsize,), replace=False)
        return X0[idx]

    def sample_x1(key, batchsize):
        idx = jax.random.choice(key, jnp.arange(len(X1)), (batchsize,), replace=False)
        return X1[idx]

    @partial(jax.vmap, in_axes=(None, 0, None), out_axes=0)
    def integrate(params, x0, sign):
        def _ode(x, t):
            return sign*vec_field_net(params, x, t if sign==1 else 1-t)
        
        xt = ode.odeint(_ode,
                 x0,
                 jnp.linspace(0, 1, 5), 
                 rtol=1e-10, atol=1e-10,
                 mxstep=mxstep
                 )
        return xt
    
    @partial(jax.vmap, in_axes=(None, 0, 0, None), out_axes=(0,0,0))
    def integrate_with_logp(params, x0, v, sign):
        def _ode(state, t):
            x = state[0]  
            time = t if sign==1 else 1-t
            return sign*vec_field_net(params, x, time), \
                  -sign*div_fn(params, x, time, v)
        
        logp0 = 0.0
        xt, logpt = ode.odeint(_ode,
                 [x0, logp0],
                 jnp.array([0.0, 1.0]),
                 rtol=1e-10, atol=1e-10,
                 mxstep=mxstep
                 )
        return xt[0], xt[1], sign*logpt[-1]

    @partial(jax.jit, static_argnums=(2,3))
    def sample_and_logp_fn(key, params, batchsize, forward):
        key1, key2 = jax.random.split(key)
        if forward:
            x = sample_x0(key1, batchsize)
        else:
            x = sample_x1(key1, batchsize)
        v = jax.random.normal(key2, x.shape)
        return integrate_with_logp(params, x, v, 1 if forward else -1)

    @partial(jax.jit, static_argnums=(2, 3))
    def sample_fn(key, params, batchsize, forward):
        if forward:
            x = sample_x0(key, batchsize)
        else:
            x = sample_x1(key, batchsize)
        return integrate(params, x, 1 if forward else -1)

    return sample_fn, sample_and_logp_fn


# --- scaffolding: a tiny vector-field net and stand-in samples instead of the LJ trajectories ---
dim = 6
X0 = jax.random.uniform(jax.random.key(0), (64, dim))
X1 = jax.random.normal(jax.random.key(1), (64, dim))
params = {"w": 0.1 * jax.random.normal(jax.random.key(2), (dim, dim)), "b": jnp.zeros(dim)}


def vec_field_net(params, x, t):
    return jnp.tanh(x @ params["w"] + t * params["b"])


def div_fn(params, x, t, v):
    return jnp.sum(v * jax.jvp(lambda y: vec_field_net(params, y, t), (x,), (v,))[1])


sample_fn, sample_and_logp_fn = make_flow(vec_field_net, div_fn, X0, X1, mxstep=100)
batchsize = 8
calls = 0
for i in range(3):
    for forward in (True, False):
        xt = sample_fn(jax.random.key(10 + i), params, batchsize, forward)
        calls += 1
_report({"jit(sample_fn)"}, calls)
