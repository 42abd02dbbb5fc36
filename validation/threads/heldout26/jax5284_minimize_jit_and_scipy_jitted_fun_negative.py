# source: https://github.com/jax-ml/jax/issues/5284
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jitting jax.scipy.optimize.minimize as the thread suggests compiles minimize_jit once for both starts (same shape); scipy.optimize.minimize gets jitted fun/jac built once, so nothing recompiles.
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




import time
import scipy.optimize
import jax
import jax.numpy as jnp
import jax.scipy.optimize
# import jax.config  # scaffolding: the jax.config module import fails on jax 0.10; jax.config.update below still works
# import autograd.numpy as anp  # scaffolding: autograd is not installed; its comparison branch is cut
# import autograd  # scaffolding

jax.config.update("jax_enable_x64", True)

def rosenbrock(x):
    answer = sum(100.0*(x[1:]-x[:-1]**2.0)**2.0 + (1-x[:-1])**2.0)
    return answer

jEvalFunc = jax.jit(rosenbrock)
jGradFunc= jax.jit(jax.grad(rosenbrock))
# aEvalFunc = rosenbrock  # scaffolding: autograd branch cut
# aGradFunc = autograd.grad(rosenbrock)  # scaffolding

x0 = [76.0, 97.0, 20.0, 120.0, 0.01, 1e4]
x1 = [76.0, 97.0, 20.0, 120.0, 0.01, 1e2]
toleranceChange = 1e-9
maxIter = 10000
jx0 = jnp.array(x0)
jx1 = jnp.array(x1)
# ax0 = anp.array(x0)  # scaffolding
# ax1 = anp.array(x1)  # scaffolding

@jax.jit
def minimize_jit(x0):
    out = jax.scipy.optimize.minimize(fun=rosenbrock, x0=x0, method='BFGS')
    # out = out._replace(message=None)  # scaffolding: OptimizeResults has no message field on jax 0.10 (it was the non-array leaf the line removed)
    return out

jOptimRes_x0 = scipy.optimize.minimize(fun=jEvalFunc, x0=jx0, method='BFGS', jac=jGradFunc)
startTime = time.time()
jOptimRes_x1 = scipy.optimize.minimize(fun=jEvalFunc, x0=jx1, method='BFGS', jac=jGradFunc)
jElapsedTime = time.time()-startTime

j2OptimRes_x0 = minimize_jit(jx0)
startTime = time.time()
j2OptimRes_x1 = minimize_jit(jx1)
j2OptimRes_x1.x.block_until_ready()
j2ElapsedTime = time.time()-startTime

_report({"jit(minimize_jit)"}, 2)  # scaffolding
