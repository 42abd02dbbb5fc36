# source: https://github.com/Leila828/Learning_JAX_for_deepLearning/blob/9aab92e4e90af53f93edd476cd8bab00659f1a58/JAX_Programming_Model.ipynb
# expect: trace-time-error at line 178
# runtime: ERROR TracerBoolConversionError
# why: H is decorated with @jit and branches with if(x>0) on its argument, so H(4) traces x and the Python if raises TracerBoolConversionError, while the undecorated G(4) runs.
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




# cell 1
def Square(x):
  return x*x
# cell 2
a = 10

def Func(x):
  global a
  a = a+1     #changing the value of non-local variable a

def Func2(x):
  print("Executing..") #Any I/O operation is a side-effect

#In case one would like to see the change in a
Func(a)
print(a)  #value is changed
# cell 3
import numpy as np
import jax.numpy as jnp

# We have used the respective prefixes to make it easy to distinguish 
# between NumPy and JAX arrays.

#Initializing NumPy arrays
np_a = np.arange(9)
np_b = np.linspace(0,20,num=5)
np_c = np.zeros(15)
np_d = np.ones(10)

#Initializing JAX arrays
jnp_a = jnp.arange(9)
jnp_b = jnp.linspace(0,20,num=5)
jnp_c = jnp.zeros(15)
jnp_d = np.ones(10)

#NumPy arrays
print("Printing NumPy arrays")
print(np_a)
print(np_b)
print(np_c)
print(np_d)

#JAX arrays
print("Printing JAX arrays")
print(jnp_a)
print(jnp_b)
print(jnp_c)
print(jnp_d)
# cell 4
import numpy as np
import jax
import jax.numpy as jnp

np_a = np.array((1,2,3))
print("Type of array a is",type(np_a))
jnp_b = jnp.array((1,2,3))
print("Type of array b is",type(jnp_b))
# cell 5
import numpy as np

np_a = np.array((1,2,3))
print(np_a)

#Mutating the array is allowed
np_a[2] = 12
print(np_a)
# cell 6
import jax
import jax.numpy as jnp

jnp_a = jnp.array((1,2,3))
print(jnp_a)

#Mutating the array is NOT allowed
# jnp_a[2] = 12  # scaffolding: cut; raises TypeError (JAX arrays are immutable), the point of this cell, and would stop the script
print(jnp_a)

# cell 7
import numpy as np
import jax.numpy as jnp

def FuncA(x):
  return np.dot(x,x)

def FuncB(x):
  return jnp.dot(x,x) #JAX Version

np_a = np.arange(10)
jnp_b = jnp.arange(10)

#And couple of primitive structures
c = [1,2,3,4,5]
d = (1,2,1,4,2)

#Works for all of them
print(FuncA(np_a))
print(FuncA(jnp_b))
print(FuncA(c))
print(FuncA(d))

print("Testing JAX version on both JNP and NP Arrays")
print(FuncB(np_a))
print(FuncB(jnp_b))

#JNP Version doesn't for Python structures - expect errors
print("Testing JAX version on Python structures")
# print(FuncB(c))  # scaffolding: cut; jnp.dot rejects a Python list with TypeError ('expect errors', as the comment says)
# print(FuncB(d))  # scaffolding: likewise for the tuple
# cell 8
from jax import jit

#Normal Square Function
def Square(x):
    print("Running the Non-JIT function")
    ans = x*x
    print("x square is: ",ans)
    return ans    

#Now run the JIT version
@jit
def JIT_Square(x):
    print("Running the JIT function")
    ans = x*x
    print("x square is: ",ans)
    return ans

x = 4.2
print(Square(x))
print("------Here comes the interesting part-------")
print(JIT_Square(x))  

#you can also execute a non-jit using JIT as follows:
#print(jit(Square)(x))
# cell 9
from jax import jit

#Normally running JIT code
@jit
def F(x):
    for i in range(1,10):
        x=x+i
    return x

a = 2.0
print(F(a))   

#Tracer object's value is undetermined
@jit
def H(x):
    if(x>0):
        print("Positive")
    else:
        print("Zero or negative!")

def G(x):
    if(x>0):
        print("Positive")
    else:
        print("Zero or negative!")

G(4) #will run without any error
try:  # scaffolding
    H(4) #throws error
    _report({"jit(H)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
# (cells 10-18: lambdas, make_jaxpr and timing cells, cut)  # scaffolding
