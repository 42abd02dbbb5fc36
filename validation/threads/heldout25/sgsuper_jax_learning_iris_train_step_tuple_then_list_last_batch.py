# source: https://github.com/sgsuper12373/JAX_Learning/blob/3c7de451bd0eabaca852d471889737094ba56dc9/Nn/NN_with_JAX.py
# expect: shape-churn at line 147
# runtime: COMPILES 3 CALLS 24
# why: train_step is first called with the tuple from init_params and then with the list it returns, and the hand-written loader's last batch has 8 rows instead of 16, so train_step compiles 3 times in the first epoch.
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


import jax 
import jax.numpy as jnp 
import time

import numpy as np  # scaffolding
# from sklearn.datasets import load_iris  # scaffolding: sklearn not installed; small stand-ins below
# from sklearn.model_selection import train_test_split  # scaffolding
# from sklearn.preprocessing import OneHotEncoder, StandardScaler  # scaffolding


class _Bunch:  # scaffolding
    pass  # scaffolding


def load_iris():  # scaffolding: 150 samples, 4 features, 3 classes, like sklearn's iris
    r = np.random.RandomState(0)  # scaffolding
    d = _Bunch()  # scaffolding
    d.data = r.rand(150, 4)  # scaffolding
    d.target = np.repeat(np.arange(3), 50)  # scaffolding
    return d  # scaffolding


def train_test_split(X, y, test_size):  # scaffolding: same sizes as sklearn (120 train / 30 test)
    p = np.random.RandomState(1).permutation(len(X))  # scaffolding
    n_test = int(np.ceil(test_size * len(X)))  # scaffolding
    tr, te = p[n_test:], p[:n_test]  # scaffolding
    return X[tr], X[te], y[tr], y[te]  # scaffolding


class OneHotEncoder:  # scaffolding
    def __init__(self, sparse_output=True):  # scaffolding
        pass  # scaffolding
    def fit_transform(self, y):  # scaffolding
        return np.eye(int(y.max()) + 1)[y.ravel()]  # scaffolding


class StandardScaler:  # scaffolding
    def fit_transform(self, X):  # scaffolding
        return (X - X.mean(0)) / X.std(0)  # scaffolding

data = load_iris()
X = data.data
y = data.target.reshape(-1,1)


encoder = OneHotEncoder(sparse_output = False) 

y = encoder.fit_transform(y) 
 
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size = 0.2)

scaler = StandardScaler()
X_train = scaler.fit_transform(X_train)
X_test = scaler.fit_transform(X_test) 

#print(X_test) 
#print(y)

#input -> hidden layer1 -> hidden layer 2 -> output
def init_params(input_dim, hidden_dim1 , hidden_dim2, output_dim, random_key):
    random_keys = jax.random.split(random_key, 3) 

    W1 = jax.random.normal(random_keys[0], (input_dim,hidden_dim1) )
    b1 = jnp.zeros((hidden_dim1)) 

    W2 = jax.random.normal(random_keys[0], (hidden_dim1, hidden_dim2) )
    b2 = jnp.zeros((hidden_dim2)) 

    W3 = jax.random.normal(random_keys[0], (hidden_dim2, output_dim) )
    b3 = jnp.zeros((output_dim)) 

    return W1,b1, W2,b2,W3,b3 

def forward(params, X): 
    W1, b1, W2, b2, W3, b3 = params

    h1 = jax.nn.relu(jnp.dot(X,W1) + b1) #relu is function such that if x<0 then output is 0 else output=x 
    #relu(x): x<0? 0 : x 

    h2 = jax.nn.relu(jnp.dot(h1,W2) +b2) 
    logits = jnp.dot(h2,W3) + b3    #we don't relu here because this are logits which are going to passed to softmax function 

    return logits   



def loss_fn(params, X,y, l2_reg = 0.0001): 
    logits = forward(params, X)
    probs = jax.nn.softmax(logits) 
    l2_loss = l2_reg *sum ([jnp.sum(w**2) for w in params[::2]]) 

    return -jnp.mean(jnp.sum(y * jnp.log(probs + 1e-8), axis=1))

@jax.jit
def train_step(params, X, y, lr): 
    grads = jax.grad(loss_fn)(params, X, y)
    return [(param - lr*grad) for param,  grad in zip(params,grads)]

def accuracy(params, X, y) :
    preds = jnp.argmax(forward(params, X), axis = 1) 
    targets = jnp.argmax(y,axis =1) 
    return jnp.mean(preds==targets)

def data_loader(X, y, batch_size):
    for i in range(0, len(X), batch_size):
        yield X[i:i+batch_size], y[i:i+batch_size]

random_key = jax.random.key(int(time.time()) )
input_dim = X.shape[1]
hidden_dim1 = 16 
hidden_dim2 = 8 
output_dim = y.shape[1]
learning_rate = 0.01
batch_size = 16
epochs = 3  # scaffolding: 1000 in the repo

params = init_params(input_dim, hidden_dim1, hidden_dim2, output_dim, random_key)

for epoch in range(epochs):
    for X_batch, y_batch in data_loader(X_train, y_train, batch_size):
        params = train_step(params, X_batch, y_batch, learning_rate)
    
    if epoch % 10 == 0:
        train_acc = accuracy(params, X_train, y_train)
        test_acc = accuracy(params, X_test, y_test)
        # train_loss = loss_fn(params, X_train, y_train)
        # test_loss = loss_fn(params, X_test, y_test)
        print(f"Epoch {epoch}, Train Acc: {train_acc:.4f}, Test Acc: {test_acc:.4f}")
print(f"Final Test acc : {accuracy(params, X_test, y_test):.4f}")
_report({"jit(train_step)"}, epochs * 8)  # scaffolding: 120 training rows / batch 16 = 8 batches per epoch
