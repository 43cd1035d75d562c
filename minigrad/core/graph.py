"""``torch.autograd.graph.saved_tensors_hooks``: see (and change) what the graph saves.

Inside ``with saved_tensors_hooks(pack, unpack):``, every tensor an op saves for backward
goes through ``pack(tensor)``, and the node keeps whatever ``pack`` returns; when backward
needs the tensor, it gets ``unpack(that)``. Printing in ``pack`` shows what a forward pass
keeps alive; returning a copy on disk, or a compressed one, is how memory is saved.
"""
_stack = []  # the active (pack, unpack) pairs, innermost last; nodes use the innermost


def current_hooks():
    return _stack[-1] if _stack else None


class saved_tensors_hooks:
    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        _stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc):
        _stack.pop()
