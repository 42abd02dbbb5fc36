# source: https://github.com/joshuacoles/slimpletic-jax/blob/7a590ae3503f1f6d3387a2ac0f3f99ce7c48f2a0/test_cases/grad_behaviour.py
# expect: none
# runtime: COMPILES 4 CALLS 6
# why: study script: a jitted f with a global call counter and prints, called with new float values, under grad, and inside another jitted g; each jit traces once per signature.
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


from jax import grad, jit

counter = 0

def f(x, y):
    global counter
    counter += 1

    print("Called {} times".format(counter))
    print("x: ", x)
    print("y: ", y)
    print()
    return x + y

print("JIT Example")
jf = jit(f)
jf(1.0, 2.0)
jf(2.0, 2.0)
jf(2.0, 2.0)
grad(jf, argnums=(0,))(1.0, 2.0)

print("\n")

print("GRAD Example")
ff = grad(f, argnums=(0,))
ff(1.0, 2.0)
ff(1.0, 2.0)
ff(3.0, 2.0)

"""
From this example we can see crucially that grad(f) evaluates the function f for each call, tracing the wrt argument,
but passing in concrete values for the other arguments.

JIT on the other hand evaluates only once with all traced arguments. 
"""

print("NOW G")

counter_g = 0

def g(x, y):
    global counter_g
    counter_g += 1

    print("Called G {} times".format(counter_g))
    print("x: ", x)
    print("y: ", y)
    print()
    return jf(x, y) * 2 + 4

jg = jit(g)
print("1st G")
jg(1.0, 2.0)
print("2nd G")
jg(1.0, 3.0)
print(_COMPILED)  # scaffolding
_report({"jit(f)", "jit(g)"}, 6)  # scaffolding
