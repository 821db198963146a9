"""Ways in for friends who have nothing installed, and ways to find a table.

* ``ssh``: a built-in SSH server (optional extra ``ssh``); each session runs its own
  ``wizard-tui join`` on a PTY of the host's machine.
* ``web``: the same table in a browser through textual-serve (optional extra ``web``).
* ``discovery``: the host announces itself with DNS-SD; ``join`` without an address browses.
* ``services``: the host's side: starts the SSH and web servers as child processes and
  stops them with the host.

Seats played through the host's machine (SSH, browser) run their client on the host's
computer, so the private deal cannot hide their cards from the host's operator; they are
marked as such (docs/fairness.md).
"""
