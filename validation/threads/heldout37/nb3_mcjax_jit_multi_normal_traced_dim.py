# source: https://github.com/mehrrero/MCMC/blob/75d527f5e37eda901236d574cf5f45389eece365/MCsampler/__init__.py
# expect: trace-time-error at line 67
# runtime: ERROR TypeError
# why: multi_normal(xp, x, D) is decorated with @jit, so the dimension D arrives as a tracer and jax.numpy.identity(D) raises a TypeError while tracing as soon as a 2-D target is sampled.

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
from jax import jit
# (from jax.lib import xla_bridge dropped: removed from jax, unused)
from jax.lax import scan
from jax import random
import timeit


@jit
def normal(xp,x):
    '''
        Evaluates a normal distribution with sigma =1 and centered at xp.

        Parameters:
            xp (float): Center of the normal distribution.
            x (float): Point where to evaluate the distribution.

        Returns:
            n (float): Probability of point x

    '''
    
    return  1/jnp.sqrt(2*jnp.pi)*jnp.exp(-1/2*(x-xp)**2)

@jit
def multi_normal(xp, x, D):
    '''
        Evaluates a multivariate normal distribution with sigma = 1/2 * Identity and centered at xp.

        Parameters:
            xp (array): Center of the distribution.
            x (array): Point where to evaluate the distribution.

        Returns:
            n (float): Probability of point x

    '''

    cov = 1/2*jax.numpy.identity(D)
    exponent = -1/2 * jnp.matmul(jnp.matmul(jnp.transpose((xp - x)), cov), (xp - x))
    return 1/(2 * jnp.pi) ** (D / 2) * jnp.exp(exponent)



class Metro_Has():
    '''
        Implementation of the Metropolis-Hastings algorithm to sample from a D-dimensional distribution.

        Parameters:
            P (function): Distribution to be sampled.
            D (int): Dimensionality of base space.
        
    '''

    def __init__(self, P, D):
        super(Metro_Has, self).__init__()
        self.P = P
        self.key = random.PRNGKey(0)
        self.D = D

    def draw_sample(self,x, key):
        '''
            Draws a sample from the proposal distribution, chosen to be a (multivariate) normal distribution with unit covariance.

            Parameters:
                x (array): Current state of the Markov chain.
                key (array): PRNG key for the random generators.

            Returns:
                xp (array): Sample from the proposal distribution.

        '''
        
        if self.D == 1:
            xp = jax.random.normal(key)

        if self.D >1:
            xp = jax.random.multivariate_normal(key, x, jnp.array([[1,0],[0,1]]))
        return xp

    
    def Q(self, xp, x):
        '''
            Probability function of the proposal distribution, chosen to be a (multivariate) normal distribution with unit covariance.
        
            Parameters:
                xp (array): New proposed state of the Markov chain.
                x (array): Current state of the Markov chain.

            Returns:
                q (float): Probability of Q(xp|x).
        '''
        
        if self.D == 1:
            q = normal(xp,x)
            
        elif self.D >1:
            q = multi_normal(xp,x, self.D)

        return q
        
    
    def acceptance(self, x, xp, key):
        '''
            Checks whether we accept or not the new proposed state in the Markov chain.

            Parameters:
                x (array): Current state of the Markov chain.
                xp (array): New proposed state of the Markov chain.
                key (array): PRNG key for the random generators.
                
            Returns:
                xp (array): Returns the value of xp when it is accepted. Otherwise it returns nan.
            
        '''
        alpha = [1]
        alpha.append(self.P(xp)/self.P(x) * self.Q(x,xp)/self.Q(xp,x) )
        a = jnp.amin(jnp.array(alpha))
        u = random.uniform(key)
        xp = jnp.where(u > a, jnp.nan, xp)
        
        return xp

    
    
    def step(self, x0, key1, key2):
        '''
            Performs an attemp to a step in the Markov chain.
            
            Parameters:
                x0 (array): Current state of the Markov chain.
                key1 (array): PRNG key for the random generators.
                key2 (array): PRNG key for the random generators.

            Returns:
                xp (array): Returns the value of xp when it is accepted. Otherwise it returns nan.
        '''
        

        xp = self.draw_sample(x0, key1)
        
        return self.acceptance(x0, xp, key2)


    def markov_chain(self, x0, keys, burning_keys):
        '''
            Performs N attempts of moving along the Markov chain, with N the lenght of keys.

            Parameters:
                x0 (array): Current state of the Markov chain.
                keys (array): PRNG keys for the random generators.
                burning_keys (array): PRNG keys for the random generators used during the burning period.
                
            Returns:
                x_ac (array): Accepted values.
                
        '''
        
        
        x_ac = []

        for i in range(len(burning_keys)//2):
            x_n = self.step(x0, burning_keys[2*i], burning_keys[2*i+1])
            x0 = jnp.where(~jnp.any(jnp.isnan(x_n)), x_n, x0)
        
        for i in range(len(keys)//2):
            x_n = self.step(x0, keys[2*i], keys[2*i+1]) 
            x0 = jnp.where(~jnp.any(jnp.isnan(x_n)), x_n, x0)
            x_ac.append(x_n)

        x_ac = jnp.stack(x_ac)

        return x_ac


    
    def sample(self, x0, Nt, burn = 50):
        '''
            Returns ~Nt samples from the distribution.

            Parameters:
                x0 (array): Initial state.
                Nt (int): Approximate number of samples to be retrieved from the distribution. The sampling will always return a number close to but larger than Nt.
                burn (int, optional): Number of steps in the burning stage. The default value is 50.

            Returns:
                u (array): ~Nt samples of the target distribution.
        '''
        
        Nt = int(Nt)
        N = 20

        Nc = Nt//N


        start = timeit.default_timer()
        u = jnp.array([])
        
        while len(u) < self.D*Nt:
            keys = random.split(self.key, 2 * Nc * N + 1)
            self.key, *keys = keys
            keys = jnp.array(keys).reshape(Nc, 2 * N, 2)

            bkeys = random.split(self.key, 2*Nc*burn+1)
            self.key, *bkeys = bkeys
            bkeys = jnp.array(bkeys).reshape(Nc,2*burn, 2)
            
            _x0 = jnp.expand_dims(x0,0).repeat(Nc, axis=0)
            u_p = jax.vmap(lambda x, y, z: self.markov_chain(x, y, z))(_x0,keys,bkeys)
            u_p = u_p[~jnp.isnan(u_p)]
            u = jnp.concatenate((u,u_p))
            x0 = u[-self.D:]
            if self.D == 1:
                x0 = x0.item()

        stop = timeit.default_timer()
        dt = (stop - start) 
        
        if self.D>1:
            u = u.reshape(u.shape[0]//self.D,self.D)
        

        print(f'{len(u)} points accepted in {dt} s.')
        return u







# --- demo.ipynb, 2-D target (the notebook's `lag=20` argument, which sample() does not take, is dropped) ---
@jit
def P(x):

    D=x.shape[0]
    cov = 0.1*jnp.array([[1,0],[0,1]])
    detcov = jnp.linalg.det(cov)
    invcov = jnp.linalg.inv(cov)
    mu = jnp.array([0,0])

    expo = jnp.matmul(jnp.transpose(x-mu), jnp.matmul(invcov,(x-mu)  ) )
    
    p = 1/(2*jnp.pi)**(D/2) * 1/jnp.sqrt(detcov) * jnp.exp(-1/2*expo)
    
    return p

x0 = jnp.array([1,3])
sampler_p = Metro_Has(P,x0.shape[0])
try:  # scaffolding
    u_p = sampler_p.sample(x0, 40, burn = 5)  # scaffolding: 5000 samples cut to 40
    _report({"jit(multi_normal)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print("ERROR", type(e).__name__)  # scaffolding
