# source: https://github.com/advait-patel-17/jax-learning/blob/6b700544221beb49d69763cc1b371653aa60538b/basics/logistic_regression_jax.py
# expect: none
# runtime: COMPILES 2 CALLS 14
# why: num_epochs is used as the lax.scan length inside the jitted train_logistic_regression, but it is never passed, so the default 100 stays a Python int at trace time; the function compiles once for its two calls and logistic_regression once for the 12 rows.
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



import jax.numpy as jnp
from jax import grad, jit, lax, vmap
# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed


class plt:  # scaffolding: stand-in for matplotlib.pyplot
    scatter = xlabel = ylabel = title = show = staticmethod(lambda *a, **k: None)  # scaffolding
import time

@jit
def sigmoid(x):
    return 1 / (1 + jnp.exp(-x))

@jit
def loss(weights, features, labels):
    def loss_per_sample(feature, label):
        return label * jnp.log(sigmoid(jnp.dot(weights, feature))) + ( 1 - label)*jnp.log(1 - sigmoid(jnp.dot(weights, feature)))
    #vmap the loss_per_sample function
    loss_per_sample_vmap = vmap(loss_per_sample)
    return -jnp.mean(loss_per_sample_vmap(features, labels))

@jit
def logistic_regression(weights, features):
    return sigmoid(jnp.dot(weights, features))

@jit
def train_logistic_regression(initial_weights, features, labels, learning_rate=0.1, num_epochs=100):
    grad_loss = grad(loss)
    def update(weights, _):
        grads = grad_loss(weights, features, labels)
        weights = weights - learning_rate * grads
        return weights, None
    weights, _ = lax.scan(update, initial_weights, None, length=num_epochs)
    return weights

def plot_decision_boundary(features, preds, labels):
    plt.scatter(features[:, 0], features[:, 1], c=preds)
    plt.xlabel("Feature 1")
    plt.ylabel("Feature 2")
    plt.title("Logistic Regression Decision Boundary")
    plt.show()


weights = jnp.array([0.0, 0.0])
#have 100 samples, 2 features
features = jnp.array([[1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 8], [8, 9], [9, 10], [10, 11], [11, 12], [12, 13]])
labels = jnp.array([0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1])

# start timer
start_time = time.time()
trained_weights = train_logistic_regression(weights, features, labels)
#end timer
end_time = time.time()
print(f"Time taken: {end_time - start_time} seconds. includes jit compilation")


start_time = time.time()
trained_weights = train_logistic_regression(weights, features, labels)
#end timer
end_time = time.time()
print(f"Time taken: {end_time - start_time} seconds. no jit compilation")

#time taken without jit: 2.92 seconds
#time taken with jit (including compilation): 0.096 seconds
#time take with jit (already compiled): 2.3e-5

print(trained_weights)


preds = jnp.array([logistic_regression(trained_weights, feature) for feature in features])
print(preds)

print(f"Trained weights: {trained_weights}")

plot_decision_boundary(features, preds, labels)
_report({"jit(train_logistic_regression)", "jit(logistic_regression)"}, 14)  # scaffolding: 2 training calls + 12 per-row predictions
