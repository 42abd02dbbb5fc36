# source: https://github.com/jax-ml/jax/issues/1571
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: linspace endpoints that depend on the differentiated (and, here, jitted) parameters are fine because the number of points is a Python constant, so the output shape is static; grad works on current jax and the jitted gradient compiles once for both parameter values.

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
import jax.numpy as jnp
import jax 

def testlinspace(x, *args): #does not work 
    out = jnp.linspace(x[0],x[1],50) #linspace depends on parameters 
    
    out = x[2]*jnp.square(out)
    out = jnp.sum(out)
    
    return out 

def testlinspace2(x, *args): #works 
    out = jnp.linspace(1.,50.,50) #linspace is just some array of numbers 
    
    out = x[2]*jnp.square(out)+x[0]*x[1]
    out = jnp.sum(out)
    
    return out 

x = [2.,3.,1.5]
testobj = testlinspace(x)
testgrad = jax.grad(testlinspace)
testobj2 = testlinspace2(x)
testgrad2 = jax.grad(testlinspace2)

print(testgrad(x)) #throws exception, note gradient using finite differences is DeviceArray([174.48979293, 200.51020897, 316.83673001])
print(testgrad2(x)) #works, gives DeviceArray([  149.99968698,    99.99930626, 42924.99943404])

jit_testgrad = jax.jit(testgrad)  # scaffolding: the same gradient under jit
print(jit_testgrad(x))  # scaffolding
print(jit_testgrad([1., 4., 2.5]))  # scaffolding: new parameter values, same structure
_report({"jit(testlinspace)"}, 2)  # scaffolding
