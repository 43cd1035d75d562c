# Source: karpathy/nn-zero-to-hero, lectures/makemore/makemore_part1_bigrams.ipynb (the neural network)
# Changed: cells joined, each cell's last expression printed as Jupyter shows it; names.txt replaced by its first 200 names;
# Changed: the vocabulary cell repeated before it; the imshow cell left out; 20 steps of gradient descent (the notebook's last run kept 1).
NAMES = '''\
emma olivia ava isabella sophia charlotte mia amelia harper evelyn abigail emily elizabeth mila
ella avery sofia camila aria scarlett victoria madison luna grace chloe penelope layla riley
zoey nora lily eleanor hannah lillian addison aubrey ellie stella natalie zoe leah hazel violet
aurora savannah audrey brooklyn bella claire skylar lucy paisley everly anna caroline nova
genesis emilia kennedy samantha maya willow kinsley naomi aaliyah elena sarah ariana allison
gabriella alice madelyn cora ruby eva serenity autumn adeline hailey gianna valentina isla
eliana quinn nevaeh ivy sadie piper lydia alexa josephine emery julia delilah arianna vivian
kaylee sophie brielle madeline peyton rylee clara hadley melanie mackenzie reagan adalynn
liliana aubree jade katherine isabelle natalia raelynn maria athena ximena arya leilani taylor
faith rose kylie alexandra mary margaret lyla ashley amaya eliza brianna bailey andrea khloe
jasmine melody iris isabel norah annabelle valeria emerson adalyn ryleigh eden emersyn anastasia
kayla alyssa juliana charlie esther ariel cecilia valerie alina molly reese aliyah lilly parker
finley morgan sydney jordyn eloise trinity daisy kimberly lauren genevieve sara arabella harmony
elise remi teagan alexis london sloane laila lucia diana juliette sienna elliana londyn ayla
callie gracie josie amara jocelyn daniela everleigh mya rachel summer alana
'''  # the first 200 names of makemore's names.txt

def _show(value):  # what Jupyter shows for a cell's last expression
    if value is not None:
        print(repr(value))

words = NAMES.split()

import torch
import torch.nn.functional as F
chars = sorted(list(set(''.join(words))))
stoi = {s:i+1 for i,s in enumerate(chars)}
stoi['.'] = 0
itos = {i:s for s,i in stoi.items()}

# create the training set of bigrams (x,y)
xs, ys = [], []

for w in words[:1]:
  chs = ['.'] + list(w) + ['.']
  for ch1, ch2 in zip(chs, chs[1:]):
    ix1 = stoi[ch1]
    ix2 = stoi[ch2]
    print(ch1, ch2)
    xs.append(ix1)
    ys.append(ix2)
    
xs = torch.tensor(xs)
ys = torch.tensor(ys)

_show((xs))

_show((ys))

import torch.nn.functional as F
xenc = F.one_hot(xs, num_classes=27).float()
_show((xenc))

_show((xenc.shape))


_show((xenc.dtype))

W = torch.randn((27, 1))
_show((xenc @ W))

logits = xenc @ W # log-counts
counts = logits.exp() # equivalent N
probs = counts / counts.sum(1, keepdims=True)
_show((probs))

_show((probs[0]))

_show((probs[0].shape))

_show((probs[0].sum()))

# (5, 27) @ (27, 27) -> (5, 27)

# SUMMARY ------------------------------>>>>

_show((xs))

_show((ys))

# randomly initialize 27 neurons' weights. each neuron receives 27 inputs
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g)

xenc = F.one_hot(xs, num_classes=27).float() # input to the network: one-hot encoding
logits = xenc @ W # predict log-counts
counts = logits.exp() # counts, equivalent to N
probs = counts / counts.sum(1, keepdims=True) # probabilities for next character
# btw: the last 2 lines here are together called a 'softmax'

_show((probs.shape))

nlls = torch.zeros(5)
for i in range(5):
  # i-th bigram:
  x = xs[i].item() # input character index
  y = ys[i].item() # label character index
  print('--------')
  print(f'bigram example {i+1}: {itos[x]}{itos[y]} (indexes {x},{y})')
  print('input to the neural net:', x)
  print('output probabilities from the neural net:', probs[i])
  print('label (actual next character):', y)
  p = probs[i, y]
  print('probability assigned by the net to the the correct character:', p.item())
  logp = torch.log(p)
  print('log likelihood:', logp.item())
  nll = -logp
  print('negative log likelihood:', nll.item())
  nlls[i] = nll

print('=========')
print('average negative log likelihood, i.e. loss =', nlls.mean().item())

# --------- !!! OPTIMIZATION !!! yay --------------

_show((xs))

_show((ys))

# randomly initialize 27 neurons' weights. each neuron receives 27 inputs
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)

# forward pass
xenc = F.one_hot(xs, num_classes=27).float() # input to the network: one-hot encoding
logits = xenc @ W # predict log-counts
counts = logits.exp() # counts, equivalent to N
probs = counts / counts.sum(1, keepdims=True) # probabilities for next character
loss = -probs[torch.arange(5), ys].log().mean()

print(loss.item())

# backward pass
W.grad = None # set to zero the gradient
_show((loss.backward()))

W.data += -0.1 * W.grad

# --------- !!! OPTIMIZATION !!! yay, but this time actually --------------

# create the dataset
xs, ys = [], []
for w in words:
  chs = ['.'] + list(w) + ['.']
  for ch1, ch2 in zip(chs, chs[1:]):
    ix1 = stoi[ch1]
    ix2 = stoi[ch2]
    xs.append(ix1)
    ys.append(ix2)
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print('number of examples: ', num)

# initialize the 'network'
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)

# gradient descent
for k in range(20):
  
  # forward pass
  xenc = F.one_hot(xs, num_classes=27).float() # input to the network: one-hot encoding
  logits = xenc @ W # predict log-counts
  counts = logits.exp() # counts, equivalent to N
  probs = counts / counts.sum(1, keepdims=True) # probabilities for next character
  loss = -probs[torch.arange(num), ys].log().mean() + 0.01*(W**2).mean()
  print(loss.item())
  
  # backward pass
  W.grad = None # set to zero the gradient
  loss.backward()
  
  # update
  W.data += -50 * W.grad

# finally, sample from the 'neural net' model
g = torch.Generator().manual_seed(2147483647)

for i in range(5):
  
  out = []
  ix = 0
  while True:
    
    # ----------
    # BEFORE:
    #p = P[ix]
    # ----------
    # NOW:
    xenc = F.one_hot(torch.tensor([ix]), num_classes=27).float()
    logits = xenc @ W # predict log-counts
    counts = logits.exp() # counts, equivalent to N
    p = counts / counts.sum(1, keepdims=True) # probabilities for next character
    # ----------
    
    ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
    out.append(itos[ix])
    if ix == 0:
      break
  print(''.join(out))


