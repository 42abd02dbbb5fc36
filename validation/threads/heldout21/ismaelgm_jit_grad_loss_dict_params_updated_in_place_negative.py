# source: https://github.com/Ismaelgm24/jax-intro-and-comparison/blob/master/ejemplos_jax.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 100
# why: jit(grad(mse_loss)) is built once and called every epoch with a params dict whose entries are rebound eagerly (params['w'] -= ...); shapes and dtypes stay fixed, so 1 compile / 100 calls.
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
import jax  # scaffolding: the notebook's import cell (matplotlib left out)
import jax.numpy as jnp  # scaffolding
from jax import grad, jit, vmap  # scaffolding
import numpy as np  # scaffolding

# Generar datos sintéticos
np.random.seed(42)
n_samples = 100
true_w, true_b = 3.5, 2.0

X = np.random.uniform(-5, 5, n_samples)
y = true_w * X + true_b + np.random.normal(0, 1, n_samples)

X_jax = jnp.array(X)
y_jax = jnp.array(y)
# (plotting left out)  # scaffolding: matplotlib is not installed
print(f"Parámetros verdaderos: w={true_w}, b={true_b}")

# Modelo y función de pérdida
def predict(params, X):
    return params['w'] * X + params['b']

def mse_loss(params, X, y):
    predictions = predict(params, X)
    return jnp.mean((predictions - y) ** 2)

# Inicializar parámetros
key = jax.random.PRNGKey(0)
params = {
    'w': jax.random.normal(key, shape=()),
    'b': jax.random.normal(key, shape=())
}

print(f"Parámetros iniciales: w={params['w']:.4f}, b={params['b']:.4f}")

# Compilar gradiente
grad_loss = jit(grad(mse_loss))

# Entrenamiento
learning_rate = 0.01
n_epochs = 100
history = {'loss': [], 'w': [], 'b': []}

for epoch in range(n_epochs):
    grads = grad_loss(params, X_jax, y_jax)
    params['w'] -= learning_rate * grads['w']
    params['b'] -= learning_rate * grads['b']
    
    loss = mse_loss(params, X_jax, y_jax)
    history['loss'].append(float(loss))
    history['w'].append(float(params['w']))
    history['b'].append(float(params['b']))
    
    if (epoch + 1) % 20 == 0:
        print(f"Época {epoch+1:3d} | Loss: {loss:.4f} | w: {params['w']:.4f} | b: {params['b']:.4f}")

print(f"\nParámetros finales: w={params['w']:.4f}, b={params['b']:.4f}")
print(f"Parámetros reales:  w={true_w}, b={true_b}")
_report({"jit(mse_loss)"}, 100)  # scaffolding
