# source: https://github.com/deterministic-algorithms-lab/Jax-Journey/blob/cd86c41d0d619f4167474d2725c7f1355acb6da7/jax_basic.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 12
# why: the jitted update reads the globals loss, opt_update and get_params, which cells 18-19 redefine for the CNN; but the CNN's stax params are a different pytree, so update is traced afresh (2 compiles for 12 calls) and uses the new definitions: nothing stale, and 300 = 3 x 100 leaves no short batch.
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
import numpy as _np  # scaffolding
import torch as _torch  # scaffolding
from PIL import Image as _Image  # scaffolding


class _MNIST(_torch.utils.data.Dataset):  # scaffolding: torchvision's MNIST needs a download; 300 train / 100 test random digits (60000 / 10000 real, both multiples of batch_size 100 like these)
    def __init__(self, root, train=True, download=False, transform=None):  # scaffolding
        rs = _np.random.RandomState(0 if train else 1)  # scaffolding
        n = 300 if train else 100  # scaffolding
        self.data = rs.randint(0, 256, (n, 28, 28)).astype(_np.uint8)  # scaffolding
        self.targets = rs.randint(0, 10, n)  # scaffolding
        self.transform = transform  # scaffolding

    def __len__(self):  # scaffolding
        return len(self.targets)  # scaffolding

    def __getitem__(self, i):  # scaffolding: like torchvision, a PIL image through the transform
        img = _Image.fromarray(self.data[i], mode='L')  # scaffolding
        return self.transform(img), int(self.targets[i])  # scaffolding


# cell 1
# %matplotlib inline  # scaffolding: magic dropped
# %config InlineBackend.figure_format = 'retina'  # scaffolding: magic dropped

import numpy as onp
import jax.numpy as np
from jax import grad, jit, vmap, value_and_grad
from jax import random

# Generate key which is used to generate random numbers
key = random.PRNGKey(1)                                                         #A key is always an nd-array of size (2,) 
# cell 2
# Generate a random matrix
x = random.uniform(key, (1000, 1000))
# Compare running times of 3 different matrix multiplications
y = onp.dot(x, x)  # scaffolding: %time dropped
y = np.dot(x, x); print(y)  # scaffolding: %time dropped
y = np.dot(x, x).block_until_ready()  # scaffolding: %time dropped
# cell 3
def ReLU(x):
    """ Rectified Linear Unit (ReLU) activation function """
    return np.maximum(0, x)

jit_ReLU = jit(ReLU)                                                            
# cell 4
out = ReLU(x).block_until_ready()  # scaffolding: %time dropped

# Call jitted version to compile for evaluation time!
jit_ReLU(x).block_until_ready()                                           #First time call will cause compilation, and may take longer.  # scaffolding: %time dropped
out = jit_ReLU(x).block_until_ready()  # scaffolding: %time dropped
# cell 5
def FiniteDiffGrad(x):
    """ Compute the finite difference derivative approx for the ReLU"""
    return np.array((ReLU(x + 1e-3) - ReLU(x - 1e-3)) / (2 * 1e-3))

# Compare the Jax gradient with a finite difference approximation
print("Jax Grad: ", jit(grad(jit(ReLU)))(2.))
print("FD Gradient:", FiniteDiffGrad(2.))
# cell 6
batch_dim = 32
feature_dim = 100
hidden_dim = 512

# Generate a batch of vectors to process
X = random.normal(key, (batch_dim, feature_dim))

# Generate Gaussian weights and biases
params = [random.normal(key, (hidden_dim, feature_dim)),
          random.normal(key, (hidden_dim, ))]

def relu_layer(params, x):
    """ Simple ReLu layer for single sample """
    return ReLU(np.dot(params[0], x) + params[1])

def batch_version_relu_layer(params, x):
    """ Error prone batch version """
    return ReLU(np.dot(X, params[0].T) + params[1])

def vmap_relu_layer(params, x):
    """ vmap version of the ReLU layer """
    return jit(vmap(relu_layer, in_axes=(None, 0), out_axes=0))

out = np.stack([relu_layer(params, X[i, :]) for i in range(X.shape[0])])
out = batch_version_relu_layer(params, X)
out = vmap_relu_layer(params, X)
# cell 7
from jax.scipy.special import logsumexp
# from jax.experimental import optimizers  # scaffolding: moved to jax.example_libraries
from jax.example_libraries import optimizers  # scaffolding

import torch
from torchvision import datasets, transforms
datasets.MNIST = _MNIST  # scaffolding: stand-in above

import time
# cell 8
batch_size = 100

train_loader = torch.utils.data.DataLoader(
    datasets.MNIST('../data', train=True, download=True,
                   transform=transforms.Compose([
                       transforms.ToTensor(),
                       transforms.Normalize((0.1307,), (0.3081,))
                   ])),
    batch_size=batch_size, shuffle=True)

test_loader = torch.utils.data.DataLoader(
    datasets.MNIST('../data', train=False, transform=transforms.Compose([
                       transforms.ToTensor(),
                       transforms.Normalize((0.1307,), (0.3081,))
                   ])),
    batch_size=batch_size, shuffle=True)
# cell 9
print(key)
split = random.split(key, 5)                                                    #Can be split into any number of parts. New keys, along new axis
print(split)                                                
print(random.split(split[0]))                                                   #Can only split "keys", i.e. , nd-array of size (2,)
# cell 10
def initialize_mlp(sizes, key):
    """ Initialize the weights of all layers of a linear layer network """

    keys = random.split(key, len(sizes))
    
    # Initialize a single layer with Gaussian weights -  helper function
    def initialize_layer(m, n, key, scale=1e-2):
        w_key, b_key = random.split(key)
        return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))
    
    return [initialize_layer(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]


layer_sizes = [784, 512, 512, 10]

# Return a list of tuples of layer weights
params = initialize_mlp(layer_sizes, key)

# cell 11
def forward_pass(params, in_array):
    """ 
    Compute the forward pass for each example individually.
    Inputs :  params: List of tuples. Tuples must be as required by relu_layer.
              in_array: Input array as needed by relu_layer.
    """
    activations = in_array

    # Loop over the ReLU hidden layers
    for w, b in params[:-1]:
        activations = relu_layer([w, b], activations)

    # Perform final trafo to logits
    final_w, final_b = params[-1]
    logits = np.dot(final_w, activations) + final_b                             #Feel free to use any jit-numpy operations in your functions, anywhere.

    return logits - logsumexp(logits)                                           #Just simple softmax, it is. 

# Make a batched version of the `predict` function
batch_forward = vmap(forward_pass, in_axes=(None, 0), out_axes=0)

# cell 12
def one_hot(x, k, dtype=np.float32):
    """Create a one-hot encoding of x of size k """
    return np.array(x[:, None] == np.arange(k), dtype)

def loss(params, in_arrays, targets):
    """ 
    Compute the multi-class cross-entropy loss.

    Inputs : params: list of model parameters as accepted by forward_pass
             in_arrays: input_array as accepted by forward_pass
             targets: jit-numpy array containing one hot targets
    """
    preds = batch_forward(params, in_arrays)
    return -np.sum(preds * targets)                                             #Cross Entropy Loss. Divide by 784 to average.

def accuracy(params, data_loader):
    """ Compute the accuracy for a provided dataloader """
    acc_total = 0
    num_classes = 10

    for batch_idx, (data, target) in enumerate(data_loader):
        images = np.array(data).reshape(data.size(0), 28*28)                    #Need to make PyTorch tensors, into jit-numpy arrays
        targets = one_hot(np.array(target), num_classes)

        target_class = np.argmax(targets, axis=1)
        predicted_class = np.argmax(batch_forward(params, images), axis=1)
        acc_total += np.sum(predicted_class == target_class)
    return acc_total/len(data_loader.dataset)
# cell 13
x = np.arange(3)
print(x.shape)
print(x[None, :].shape)
print(x[:,None].shape)
print(x+x[None,:])
print(x[None,:]+x[:,None])
print(x+x[:,None])
# cell 14
@jit
def update(params, x, y, opt_state):
    """ 
    Compute the gradient for a batch and update the parameters

    Inputs :  params:     list of model parameters as accepted by loss function (in turn by forward_pass)
              x:          input as accepted by loss_function(in turn by forward_pass)
              y:          jit-numpy array containing one hot targets(as required by loss function)
              opt_state:  as required by opt_update
    Returns : 
              updated parameters, current optimizer state, computed value
    """
    value, grads = value_and_grad(loss)(params, x, y)
    opt_state = opt_update(0, grads, opt_state)                                 #opt_update is a function, not a variable, hence is available in this scope, although not defined here.
    return get_params(opt_state), opt_state, value                              #The first argument to the opt_update function is the optimizer step number.

# Defining an optimizer in Jax
step_size = 1e-3
opt_init, opt_update, get_params = optimizers.adam(step_size)
opt_state = opt_init(params)                                                    #All the updatable parameters. First opt_state needs to be obtained this way, always.

num_epochs = 2  # scaffolding: 10 in the notebook
num_classes = 10
# cell 15
def run_mnist_training_loop(num_epochs, opt_state, net_type="MLP"):
    """ Implements a learning loop over epochs. """

    # Initialize placeholder for logging
    log_acc_train, log_acc_test, train_loss = [], [], []

    # Get the initial set of parameters
    params = get_params(opt_state)                                              #Assumes all parameters are updatable. Otherwise send as argument in this function. 

    # Get initial accuracy after random init
    train_acc = accuracy(params, train_loader)
    test_acc = accuracy(params, test_loader)
    log_acc_train.append(train_acc)
    log_acc_test.append(test_acc)

    # Loop over the training epochs
    for epoch in range(num_epochs):
        start_time = time.time()
        for batch_idx, (data, target) in enumerate(train_loader):
            if net_type == "MLP":
                # Flatten the image into 784-sized vectors for the MLP
                x = np.array(data).reshape(data.size(0), 28*28)
            elif net_type == "CNN":
                # No flattening of the input required for the CNN
                x = np.array(data)
            y = one_hot(np.array(target), num_classes)
            params, opt_state, loss = update(params, x, y, opt_state)
            train_loss.append(loss)

        epoch_time = time.time() - start_time
        train_acc = accuracy(params, train_loader)
        test_acc = accuracy(params, test_loader)
        log_acc_train.append(train_acc)
        log_acc_test.append(test_acc)
        print("Epoch {} | T: {:0.2f} | Train A: {:0.3f} | Test A: {:0.3f}".format(epoch+1, epoch_time,
                                                                    train_acc, test_acc))

    return train_loss, log_acc_train, log_acc_test


train_loss, train_log, test_log = run_mnist_training_loop(num_epochs,
                                                          opt_state,
                                                          net_type="MLP")

# cell 16
# from jax.experimental import stax  # scaffolding: moved to jax.example_libraries
from jax.example_libraries import stax  # scaffolding
# from jax.experimental.stax import (BatchNorm, Conv, Dense, Flatten,  # scaffolding
from jax.example_libraries.stax import (BatchNorm, Conv, Dense, Flatten,  # scaffolding
                                   Relu, LogSoftmax)
# cell 17
init_fun, conv_net = stax.serial(Conv(32, (5, 5), (2, 2), padding="SAME"),      #First argument is number of out channels, second is filter shape, third stride.
                                 BatchNorm(), Relu,
                                 Conv(32, (5, 5), (2, 2), padding="SAME"),
                                 BatchNorm(), Relu,
                                 Conv(10, (3, 3), (2, 2), padding="SAME"),
                                 BatchNorm(), Relu,
                                 Conv(10, (3, 3), (2, 2), padding="SAME"), Relu,
                                 Flatten,
                                 Dense(num_classes),                            #Only final size needs to be specified !! 
                                 LogSoftmax)

output_shape, params = init_fun(key, (batch_size, 1, 28, 28))
# cell 18
def accuracy(params, data_loader):
    """ Compute the accuracy for the CNN case (no flattening of input)"""
    acc_total = 0
    for batch_idx, (data, target) in enumerate(data_loader):
        images = np.array(data)
        targets = one_hot(np.array(target), num_classes)

        target_class = np.argmax(targets, axis=1)
        predicted_class = np.argmax(conv_net(params, images), axis=1)
        acc_total += np.sum(predicted_class == target_class)
    return acc_total/len(data_loader.dataset)

def loss(params, images, targets):
    preds = conv_net(params, images)
    return -np.sum(preds * targets)
# cell 19
step_size = 1e-3
opt_init, opt_update, get_params = optimizers.adam(step_size)
opt_state = opt_init(params)
num_epochs = 2  # scaffolding: 10 in the notebook

train_loss, train_log, test_log = run_mnist_training_loop(num_epochs,
                                                          opt_state,
                                                          net_type="CNN")
_report({"jit(update)"}, 2 * 2 * 3)  # scaffolding: MLP then CNN, 2 epochs each, 3 batches of 100
