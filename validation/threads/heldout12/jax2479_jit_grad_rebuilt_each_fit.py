# source: https://github.com/jax-ml/jax/issues/2479
# expect: jit-in-loop-or-body at line 83
# runtime: COMPILES 4 CALLS 12
# why: devf = jit(grad(likelihood)) is rebuilt in every loop iteration; grad returns a new function object each time, so jit misses its cache and recompiles the gradient for every fit.

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
import numpy as onp
from jax import grad,jit
import jax.numpy as np

onp.random.seed(0)  # scaffolding


class _Minuit:  # scaffolding: iminuit is not installed; three gradient steps stand in for migrad
    calls = 0

    def __init__(self, fcn, args, grad):
        self.fcn, self.args, self.grad = fcn, args, grad

    @classmethod
    def from_array_func(cls, fcn, args, error=None, errordef=None, grad=None):
        return cls(fcn, args, grad)

    def migrad(self):
        for _ in range(3):
            self.args = self.args - 1e-4 * self.grad(self.args)
            _Minuit.calls += 1
        self.values = self.args
        self.errors = None
        self.fitarg = None


class iminuit:  # scaffolding
    Minuit = _Minuit

    
def gao(m,w):
    return np.exp(-(x-m)**2/(2*w*w))/(np.sqrt(2*np.pi)*w)

def likelihood(arg):
#     print("likelihood")
    m,w = np.split(arg,2)
    s = np.log(gao(m,w))
    return -np.sum(s)
    
x = onp.random.normal(4.,0.7,1000)
args = np.asarray([4.,0.7])

kwargs = {}
kwargs['fix_x1'] = False
mean = []
width = []
em = []
ew = []
ranm = onp.random.randint(50,80,size=500) - 50
for i in range(4):  # scaffolding: 100 fits cut to 4
    k = ranm[i] / 100
    args = np.asarray([5.+k,0.6+k])
    x = onp.random.normal(4.,0.7,1000)
    jitf = jit(likelihood)
    devf = jit(grad(likelihood))
    m = iminuit.Minuit.from_array_func(likelihood, args, error=(0.1, 0.1), errordef=0.5, grad=devf)
    m.migrad()
    m.fitarg
    value = m.values
    error = m.errors
    mean.append(value[0])  # scaffolding: the stored text stops at 'mean.append'
_report({"jit(likelihood)"}, _Minuit.calls)  # scaffolding
