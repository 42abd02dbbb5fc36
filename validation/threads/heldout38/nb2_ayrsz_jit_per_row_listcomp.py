# source: https://github.com/Ayrsz/studying_JAX/blob/71c3efefe043c8d10152c6432abb4c247894d51d/JAX.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 153
# why: The learner calls mult_matrix_jit once per row inside a list comprehension (and relu_jit repeatedly under %timeit), which looks like jit in a loop, but both wrappers are built once at top level and every row has the same shape, so each compiles once.

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
import jax.lax as lax
import numpy as np
# from matplotlib import pyplot as plt  # scaffolding: plotting cells dropped

def relu(x):
  return jnp.array(x+10)

seed = 0
#Toda a geração de numeros aleatórios precisa de uma key
key = jax.random.PRNGKey(seed)

#Função aprimorada, tem mais desempenho
relu_jit = jax.jit(relu)

x = jax.random.normal(key, 1000)

for _ in range(3):  # scaffolding: stands in for %timeit relu_jit(x).block_until_ready()
  relu_jit(x).block_until_ready()
for _ in range(3):  # scaffolding: stands in for %timeit relu(x).block_until_ready()
  relu(x).block_until_ready()

#Escrever suas próprias funções como se estivesse tratando com um escalar
W = jax.random.normal(key, (150, 150))
x_batched = jax.random.normal(key, (50, 150)) #Tratar como "batch", + RAPIDO

def mult_matrix(x):
  return jnp.dot(W, x)

def vector_mult_matrix(x):
  return jnp.stack([mult_matrix(obj) for obj in x])

print("Vetorizado:")
vector_mult_matrix(x_batched).block_until_ready()  # scaffolding: was %timeit

#Usando jit
mult_matrix_jit = jax.jit(mult_matrix)

def vector_mult_matrix_jit(x):
  return jnp.stack([mult_matrix_jit(obj) for obj in x])

print("Vetorizado com jit:")
for _ in range(3):  # scaffolding: stands in for %timeit vector_mult_matrix_jit(x_batched)
  vector_mult_matrix_jit(x_batched)

#Usando vmap

def vmap_mult_matrix(x):
  return jax.vmap(mult_matrix)(x)

#Perceba que a sintaxe é: jax.vmap(função aplicada a apenas um valor)(vetor)
vmap_mult_matrix(x_batched)  # scaffolding: was %timeit
_report({"jit(relu)", "jit(mult_matrix)"}, 3 + 3 * 50)
