# source: https://github.com/tenstorrent/tt-forge-models/pull/284
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: before the PR only train is static; the rngs dict (a key array) is an ordinary traced pytree argument and the not-train branch sees a concrete bool, so apply compiles once for two training calls.
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
# tenstorrent/tt-forge-models pull request #284: mnist/image_classification/jax loader before the PR (only train static, rngs traced)
import enum  # scaffolding
import inspect
import jax
from flax import linen as nn


class MNISTCNNDropoutModel(nn.Module):
    """MNIST CNN model implementation with dropout."""

    @nn.compact
    def __call__(self, x, *, train: bool):
        x = nn.Conv(features=32, kernel_size=(3, 3))(x)
        x = nn.relu(x)

        x = nn.Conv(features=64, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.max_pool(x, window_shape=(2, 2), strides=(2, 2))

        x = nn.Dropout(rate=0.25)(x, deterministic=not train)

        x = x.reshape((x.shape[0], -1))

        x = nn.Dense(features=128)(x)
        x = nn.relu(x)
        x = nn.Dropout(rate=0.5)(x, deterministic=not train)

        x = nn.Dense(features=10)(x)
        x = nn.softmax(x)

        return x


class ModelVariant(enum.Enum):  # scaffolding: the loader's variant enum, reduced
    CNN_BATCHNORM = "cnn_batchnorm"
    CNN_DROPOUT = "cnn_dropout"


class ModelLoader:  # scaffolding: the ForgeModel base and the other methods are left out
    def __init__(self, variant=ModelVariant.CNN_DROPOUT):  # scaffolding
        self._variant = variant

    def load_model(self, dtype_override=None):  # scaffolding: the dropout branch
        return MNISTCNNDropoutModel()

    def get_static_argnames(self):
        static_args = []

        # Check if the model actually has a `train` parameter
        # Only CNN models have it, not the MLP models.
        if self._variant in [ModelVariant.CNN_BATCHNORM, ModelVariant.CNN_DROPOUT]:
            # `train` must be static because the model does boolean operations on it
            # (e.g., use_running_average=not train) which don't work with traced values.
            static_args.append("train")

            # 'mutable' must be static for batch norm models because it contains strings
            # which cannot be traced by JAX
            if self._variant == ModelVariant.CNN_BATCHNORM:
                static_args.append("mutable")

        return static_args

    def get_forward_method_kwargs(self, train=False):
        model = self.load_model()

        # Get the signature of the model's __call__ method.
        try:
            sig = inspect.signature(model.__call__)
            params = sig.parameters
        # Model might not have __call__ defined.
        except (AttributeError, ValueError):
            return {}

        kwargs = {}

        if "train" in params:
            kwargs["train"] = train

        # For Flax models using apply method, add RNG keys for models with dropout
        # We detect dropout by checking the model variant or by inspecting the model
        if self._variant == ModelVariant.CNN_DROPOUT and train:
            # Explicit dropout variant
            kwargs["rngs"] = {"dropout": jax.random.key(1)}

        return kwargs


loader = ModelLoader()  # scaffolding: what the test infra does with the loader
model = loader.load_model()  # scaffolding
inputs = jax.random.normal(jax.random.PRNGKey(37), (32, 28, 28, 1))  # scaffolding: load_inputs
params = model.init(jax.random.PRNGKey(0), inputs, train=False)  # scaffolding: load_parameters
forward = jax.jit(model.apply, static_argnames=loader.get_static_argnames())  # scaffolding
for _ in range(2):  # scaffolding
    forward(params, inputs, **loader.get_forward_method_kwargs(train=True))
_report({"jit(apply)"}, 2)  # scaffolding
