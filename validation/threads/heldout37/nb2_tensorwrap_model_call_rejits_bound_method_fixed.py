# source: https://github.com/Impure-King/base-tensorwrap/commit/6bfdfc482c0923680b99b7a7d6d2a614ed69667c
# expect: none
# runtime: COMPILES 0 CALLS 4
# why: Commit 6bfdfc4 drops the per-call jax.jit from Model.__call__ and calls self.call directly, so nothing is recompiled.

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
from jaxtyping import Array


class tf:  # scaffolding: the parts of `import tensorwrap as tf` the model code touches
    Variable = staticmethod(jnp.array)  # tensorwrap: from jax.numpy import array as Variable


class Layer:  # scaffolding: tensorwrap.keras.layers.Layer reduced to what Sequential reads
    pass


class Dense(Layer):  # scaffolding: stand-in for tensorwrap.keras.layers.Dense (built, CPU path: no jit)
    def __init__(self, n_in, units, seed):
        key = jax.random.PRNGKey(seed)
        self.trainable_variables = [jax.random.uniform(key, (n_in, units)), jnp.zeros((units,))]

    def __call__(self, inputs):
        return jnp.matmul(inputs, self.trainable_variables[0]) + self.trainable_variables[1]


# --- tensorwrap/nn/models.py after commit 6bfdfc4 (Model.__call__ without jit) ---
class Model(Layer):
    """ Main superclass for all models and loads any object as a PyTree with training and inference features."""

    def __init__(self, dynamic=False, *args, **kwargs) -> None:
        self.args = args
        self.kwargs = kwargs
        self.dynamic = dynamic

    def call(self) -> None:
        pass

    def __call__(self, *args) -> Array:
        # inputs = tf.Variable(args)
        inputs = args[0]
        outputs = self.call(inputs)
        return outputs

    def creator(self):
        self.array1 = tf.Variable(self.trainable_variables[0])
        self.array2 = tf.Variable(self.trainable_variables[1])


class Sequential(Model):
    def __init__(self, layers=None) -> None:
        super().__init__()
        self.layers = [] if layers is None else layers
        self.trainable_variables = []

    def add(self, layer):
        self.layers.append(layer)


    def call(self, x) -> Array:
        self.kernelses = []
        self.biases = []
        for layer in self.layers:
            if len(layer.trainable_variables) != 0:
                self.kernelses.append(layer.trainable_variables[0])
                self.biases.append(layer.trainable_variables[1])
            x = layer(x)
        self.trainable_variables = [self.kernelses, self.biases]
        self.creator()
        return x
# --- end tensorwrap/keras/models.py ---


# scaffolding: a model used on a few inputs of one shape, as the README's examples do
model = Sequential([Dense(4, 1, 1)])
x = jnp.ones((16, 4))
for i in range(4):
    y = model(x * i)
print(y.shape)
_report({"jit(call)"}, 4)
