# source: https://github.com/vincentadam87/intro_to_jax/blob/86103ac0d9eec53da4fe053977abbd39fef3e69d/solutions/Mnist%20Classification%20with%20Neural%20Networks%20-%20from%20scratch%20with%20JAX%20-%20SOLUTIONS.ipynb
# expect: shape-churn at line 203
# runtime: COMPILES 2 CALLS 6
# why: num_batches counts the leftover partial batch (num_complete_batches + bool(leftover)) and data_stream yields it, so once per epoch the jitted update sees a shorter batch and compiles a second version.

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
# cell 1
# (colab git-clone branch, matplotlib import and the plotting cells 6 and 23 cut)
import time

import numpy as np
import numpy.random as npr

from jax import jit, grad
from jax.scipy.special import logsumexp
import jax.numpy as jnp

# scaffolding: stand-in for the course's datasets.py (JAX's MNIST downloader): random images/one-hot
# labels with MNIST's shapes, 300 training and 100 test examples
class datasets:  # scaffolding
    @staticmethod  # scaffolding
    def mnist():  # scaffolding
        r = npr.RandomState(1)  # scaffolding
        def part(n):  # scaffolding
            return r.rand(n, 784).astype(np.float32), np.eye(10, dtype=np.float32)[r.randint(0, 10, n)]  # scaffolding
        return (*part(300), *part(100))  # scaffolding
# cell 4

# the data loader provided splits both the images and labels into
# a training and test set
train_images, train_labels, test_images, test_labels = datasets.mnist()
# cell 9
# Creating random inital weights and biases for a neural network: this is done for you

def init_random_params(layer_sizes, scale=0.1, rng=npr.RandomState(0)):
    """
    Constructs random parameters for the network specified by the layer_sizes
    
    For layer_sizes = [size_1, ..., size_K], we have
    weights_1 with shape (size_2, size_1), bias_1 with shape (size_2,)
    ...
    weights_{K-1} with shape (size_K, size_{K-1}), bias_{K-1} with shape (size_{K-1})
    
    :param scale: magnitude of the random noise initialisation
    :param layer_sizes: list of the input/output size of the layers of the network
    :param rng: Random Number Generator, an object to sample random variables
    
    :return: a list of lists of parameters for each layer (weight and bias)
    """

    return [(scale * rng.randn(m, n), scale * rng.randn(n))
          for m, n, in zip(layer_sizes[:-1], layer_sizes[1:])]
# cell 11
# now the forward model from inputs to class assignment probabilities

def predict(params, inputs):
    """
    Computing the a deep network
    
    :param params: the model parameters
    :param inputs: the input images, with shape (N, 784)
    
    :return: a vector of the predicted log probabilities of each class, log p(y=i|x), with shape (N, 10)
    """
    
    # sequential call of each layer
    # the output of a layer is the input of the next layer
    activations = inputs
    for w, b in params[:-1]:
        # outputs = ... # your code here
        # activations = ... your code here (you can use the jnp.tanh non linearity)
        # <SOLUTION
        outputs = jnp.dot(activations, w) + b
        activations = jnp.tanh(outputs)
        # SOLUTION>
        
    # the final layer is treated separately
    final_w, final_b = params[-1]
    # outputs are the log probabilities of each class (logits = log p(y|x))
    # your code here ... 
    # <SOLUTION
    pre_logits = jnp.dot(activations, final_w) + final_b
    logits = pre_logits - logsumexp(pre_logits, axis=1, keepdims=True)
    return logits
    # SOLUTION>
# cell 13
# the loss of the classifier: it is the log likelihood of the observations

def loss(params, batch):
    """
    :param params: the parameters of the neural network
    :param batch: a list of the imput images and associated label with shape [(N, 784), (N, 10)]
    :return: a scalar number, the loss to be minimized, with shape (,)
    """
    # your code here ...
    # <SOLUTION
    inputs, targets = batch
    preds = predict(params, inputs)
    return -jnp.mean(jnp.sum(preds * targets, axis=1))
    # SOLUTION>
# cell 14
# the update method to run gradient descent

@jit
def update(params, batch, learning_rate):
    """
    :param params: the parameters of the neural network
    :param batch: a list of the imput images and associated label with shape [(N, 784), (N, 10)]
    :param learning_rate: the scalar learning rate
    :return: the updated params after a step of gradient descent
    """
    # call the gradient (which will have the list structure of the params)
    # and loop over layers to apply a step of gradient descent to each
    # your code here ... 
    # <SOLUTION
    grads = grad(loss)(params, batch)
    return [(w - learning_rate * dw, b - learning_rate * db)
            for (w, b), (dw, db) in zip(params, grads)]
    # SOLUTION>
# cell 15
# we can do with a metric a more interpretable metric to evaluate how well we do

def accuracy(params, batch):
    """
    The accuracy is the fraction of correct predictions.
    :param params: the parameters of the neural network
    :param batch: a list of the imput images and associated label with shape [(N, 784), (N, 10)]
    :return: the accuracy, a scalar
    """
    # your code here ... 
    # <SOLUTION
    inputs, targets = batch
    target_class = jnp.argmax(targets, axis=1)
    predicted_class = jnp.argmax(predict(params, inputs), axis=1)
    return jnp.mean(predicted_class == target_class)
    # SOLUTION>
# cell 17
# setting up the network structure
batch_size = 128
layer_sizes = [784, 10]  # this is logistic regression!
# layer_sizes = [784, 1024, 1024, 10] # try that later for deeper networks

# setting up the training parameters
learning_rate = 0.001
num_epochs = 2  # scaffolding: 30 in the notebook
# cell 18
# We are going to do stochastic gradient descent and evaluate the loss on batches of data

num_train = train_images.shape[0]
num_complete_batches, leftover = divmod(num_train, batch_size)
num_batches = num_complete_batches + bool(leftover)
# cell 19
# creating a data stream to easily get the batches
def data_stream():
    rng = npr.RandomState(0)
    while True:
        perm = rng.permutation(num_train)
        for i in range(num_batches):
            batch_idx = perm[i * batch_size:(i + 1) * batch_size]
            yield train_images[batch_idx], train_labels[batch_idx]
# cell 21

# preparing the data stream
batches = data_stream()


# initializing the parameters
params = init_random_params(layer_sizes)

# iterate over epochs (an epoch is one full sweep through the entire dataset)
# for each epoch, iterate over all batches
# print the accuracy after each epoch
# your code here ... 


# <SOLUTION
for epoch in range(num_epochs):
    start_time = time.time()
    # iterating over all batches in the dataset
    for _ in range(num_batches):
        params = update(params, next(batches), learning_rate)
    epoch_time = time.time() - start_time

    train_acc = accuracy(params, (train_images, train_labels))
    test_acc = accuracy(params, (test_images, test_labels))
    print(f"Epoch {epoch} in {epoch_time:0.2f} sec")
    print(f"Training set accuracy {train_acc}")
    print(f"Test set accuracy {test_acc}")
# SOLUTION>
_report({"jit(update)"}, num_epochs * num_batches)  # scaffolding
