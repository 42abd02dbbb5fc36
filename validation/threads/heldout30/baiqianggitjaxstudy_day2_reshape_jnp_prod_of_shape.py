# source: https://github.com/BaiqiangGit/get-started-with-JAX/blob/03de997de63863fe0decd86a66259052b834895d/replicate_day2_tutorial1.py
# expect: trace-time-error at line 266
# runtime: ERROR TypeError
# why: jnp.array(x.shape).prod() is staged out under jit, so x.reshape gets a traced size and raises TypeError (shapes must be concrete); the learner's earlier jitted demos also fail while tracing (boolean-mask indexing, Python if on a traced argument), caught by their try_fn.
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



import jax
import numpy as np
from timeit import Timer

from jax import random
from jax import make_jaxpr # jax expression
from jax import numpy as jnp

from jax import jacfwd
from jax import jacrev
from jax import jit
from jax import grad
from jax import vmap
from jax import pmap
from jax import lax 

"""
pmap: The purpose of pmap() is to express single-program multiple-data (SPMD) programs. 
      Applying pmap() to a function will compile the function with XLA (similarly to jit()), 
      then execute it in parallel on XLA devices, such as multiple GPUs or multiple TPU cores. 
      Semantically it is comparable to vmap() because both transformations map a function over array axes, 
      but where
      vmap() vectorizes functions by pushing the mapped axis down into primitive operations, 
      pmap() instead replicates the function and executes each replica on its own XLA device in parallel.
      The mapped axis size must be less than or equal to the number of local XLA devices available
      , as returned by jax.local_device_count()
      https://jax.readthedocs.io/en/latest/_autosummary/jax.pmap.html

vmap: Vectorizing map. Creates a function which maps fun over argument axes.
      https://jax.readthedocs.io/en/latest/_autosummary/jax.vmap.html#jax.vmap1


PyTree: JAX arrays contained in nested tuples, lists, dictionaries. JAX functional conventionally store data in pytrees

"""

""""
Lax: jax.lax is a library of primitives operations that underpins libraries such as jax.numpy. Transformation rules, such as JVP and batching rules, are typically defined as transformations on jax.lax primitives.
     Many of the primitives are thin wrappers around equivalent XLA operations, described by the XLA operation semantics documentation. In a few cases JAX diverges from XLA, usually to ensure that the set of operations is closed under the operation of JVP and transpose rules.
     Where possible, prefer to use libraries such as jax.numpy instead of using jax.lax directly. The jax.numpy API follows NumPy, and is therefore more stable and less likely to change than the jax.lax API.
     https://jax.readthedocs.io/en/latest/jax.lax.html

Flax: A neural network library and ecosystem for JAX designed for flexibility
      https://github.com/google/flax

Haiku: (already in maintainance mode, ignore this) 
       Haiku is a library built on top of JAX designed to provide simple, composable abstractions for machine learning research.
       https://dm-haiku.readthedocs.io/en/latest/
"""
#----------------------------------

# timer
def benchmark(fn, x, number = 10):
    t1 = Timer(lambda: fn(*x).block_until_ready()).timeit(number=number)
    print(f"[Benchmark] Fn {fn.__name__} takes {t1} to run {number} times")
    print()
    return t1

# exception handling
def try_fn(fn, x):
    print(f"[Try Fn] {fn.__name__} --------------- ")
    try:
        r = fn(*x)
        print(f"Run Fn {fn.__name__}: Successful\n")
    except Exception as e:
        print(f"Run Fn {fn.__name__}: Exception Caught with error message:")
        print(e)
    print()

    return    

#----------------------------------

# how does jit actually work
def norm(x):
    x = x - x.mean()
    return x/x.std(0)
# jit version
norm_compiled = jit(norm)

# prepare input x
key = jax.random.PRNGKey(seed=0)
size = (10000, 100)
x = jax.random.normal(key, size, dtype=jnp.float32)

# verify: should be close
assert np.allclose(norm(x), norm_compiled(x), atol=1e5)

# benchmark
benchmark(norm, (x,), 10)  # scaffolding: 10 timing runs instead of 1000
benchmark(norm_compiled, (x,), 10)  # scaffolding: 10 timing runs instead of 1000
print(type(norm))
print(type(norm_compiled))

#----------------------------------

# Jit: example of failure: array shapes must be static
def get_negatives(x):
    # in runtime, depends on the actual entires of x, 
    # the return will change in shape, **not tolerated by jit**
    return x[x<0] 

x = jax.random.normal(key, (10, ), dtype=jnp.float32)

# try w/o jit
try_fn(get_negatives, (x, ))
try_fn(jax.jit(get_negatives), (x, )) # error caught, x[x>0] varies in shape, when varying x


#----------------------------------


# so how does it work in the background ?
# tracing different levels of abstraction
# Note: anytime we get the same shapes and types we just call the compiled fun

@jit
def f(x, y):
    print("Running f():")
    print(f"x = {x}")
    print(f"y = {y}")
    result = jnp.dot(x+1, y+1)
    print(f"result = {result}")
    return result

x = np.random.randn(3, 4)
y = np.random.randn(4)
print("First Call:")   
# will see the internal prints
benchmark(f, (x, y))

x2 = np.random.randn(3,4)
y2 = np.random.randn(4)
print("Second Call:") 
# side effect: won't see any internal prints
benchmark(f, (x2, y2))

x3 = np.random.randn(3,5)
y3 = np.random.randn(5)
print("Third Call:") 
# will see internal prints as compilation not done 
# for  this shapes/types 
print(f(x3, y3)) 

x4 = np.random.randn(3,5)
y4 = np.random.randn(5)
print("Fourth Call:") 
# will see internal prints as compilation not done 
# for  this shapes/types 
print(f(x4, y4)) 

#----------------------------------

# Same function as above just without print
def f(x,y):
    return jnp.dot(x+1, y+1)

# background workflow
# make_jaxpr: is jax expression, 
# a flow model that jit creates in the background
# which does its tracing procedure
# the resulted flow can be compiled by xla

print(make_jaxpr(f)(x, y))
"""
{ lambda ; a:f32[3,4] b:f32[4]. let
    c:f32[3,4] = add a 1.0
    d:f32[4] = add b 1.0
    e:f32[3] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] c d
  in (e,) }
"""


#----------------------------------

# 2nd example of failure

# # remember: tracer cares about shapes and types
# the first time we call jit function, it is going to input abstract shape and datatype
# no info about the value !! -- that is why it will fail here:
@jit
def f(x, neg): 
    return -x if neg else x # return depends on the value - not tolerated

try_fn(f, (1, True)) 

# workaround: the 'static' argument
# use functools partial, to set some arguments as constant
# and return a new version of function 
# https://docs.python.org/3/library/functools.html#functools.partial

from functools import partial

@partial(jax.jit, static_argnums=(1, )) # first argument
def f(x, neg):
    print(x, neg)
    return -x if neg else x

print('------ static args')
print(f(1, True))
print(f(2, True))
print(f(3, False))
print(f(23, False))

# print the jax expressions

def f(x, neg):
    print(x, neg)
    return -x if neg else x

print('\nPrint jit expression 1 - no abstract shape/type traced:')
make_jaxpr_partial = partial(make_jaxpr,  static_argnums=(0, 1))
print(make_jaxpr_partial(f)(1, False))
"""
1 True
{ lambda ; . let  in (-1,) }
"""

print('\nPrint jit expression 2 - abstract x is traced:')
make_jaxpr_partial = partial(make_jaxpr,  static_argnums=(1, ))
print(make_jaxpr_partial(f)(1, True))
"""
Traced<ShapedArray(int32[], weak_type=True)>with<DynamicJaxprTrace(level=1/0)> True
{ lambda ; a:i32[]. let b:i32[] = neg a in (b,) }
"""

#----------------------------------
# 3rd example of failure

print('\n# 3rd example of failure')
@jax.jit
def f(x):
    print(x)
    print(x.shape)
    print(jnp.array(x.shape).prod())
    return x.reshape(jnp.array(x.shape).prod()) # error: reshape expects a concrete value

x = jnp.ones((2,3))

try_fn(f, (x,))

# scaffolding: the file goes on past this point (the np.prod fix, then purity gotchas); the failing call again, uncaught, for the measurement
try:  # scaffolding
    f(x)  # scaffolding
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
