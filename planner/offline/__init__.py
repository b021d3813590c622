"""The offline planner: no LLM, just embeddings, the screen and what was done so far.

Each turn it considers what can be done on this screen and picks the best:

0. on a home screen (three or more app names in view) -> open the app the task names
   ("in the Shop app"), else the app whose purpose fits it (language/apps.py: "ring
   vibration" is a setting, "promo code" is the shop's), never one already tried;
0a. a timer keypad (digit keys, an "00h 00m 00s" display) and a timer of a duration ->
   its digits as hhmmss without leading zeros (the keypad fills from the right: 5
   minutes is 5, 0, 0), Start once the display reads it (else a delete key, or stop,
   not done), done the turn after Start;
0b. a city added to the world clock ("add the city X", "the time in X") -> the world
   clock's tab, its add button, the city searched and chosen; done once it is ticked;
0c. a new alarm on a list of alarms -> the list's floating add button (once a run),
   never an alarm row whose words look alike ("every weekend" is not "Weekends");
1. a slider the task names with a level ("brightness to 50%") -> tap that point
   (just past the track's end for 0 % and 100 %);
1a. a count of a thing ("add 3 coffee mugs to my cart", "make it 2 backpacks") and a
   quantity stepper of that thing (a number between "-" and "+", below the item's
   name or on a page naming it; in the cart when the command finds the thing there or
   changes a count) -> "+" or "-" until the number reads the count, read back after
   each tap (a number that does not move: stop, not done), then the act's control
   ("Add to cart") or done;
2. a switch or check box the task names, already in the wished state -> stop, done;
   in the other state -> tap it;
3. an edit text while values from the command are untyped -> type the next value
   that fits the field (digits into number fields, words into the rest). Empty
   fields first, then filled fields of a definite kind ("change the number to ...":
   the executor replaces their text); a text that reads like a hint ("Phone") where
   no field was detected counts as a field. Capitalised names are typed only when
   the command creates something ("Create a contact for Alice"); "Call Bob Lee"
   names a target to tap;
   3a. a search that found nothing ("No results") -> its last word alone ("concert
   tickets" -> "tickets"), once; then stop, not done; a search that found something,
   for a command that goes on ("... and open that conversation") -> the first result
   naming the query, then done (``narrow.py``);
4. on a form, the options the command names: AM/PM, days ("every weekend");
5. once every value is typed, a confirm button (Save, Done, OK, Add, Send, Set...)
   -> tap it, and the turn after that -> stop, done;
6. the last tap was the act the command's verb names ("Call", "Delete", "Sign out",
   "Add to cart"; not a way to it like "Import from file" or the cart icon) -> a
   confirmation that repeats it is tapped once, then stop, done; "set the screen
   timeout to 5 minutes" is done once '5 minutes' was tapped;
7. otherwise tap the element whose description (its label, kind and block caption,
   and for apps and common entries what they are for) is most similar to the task
   (the texts to type left out), never the same label twice, never the status bar,
   the keyboard, the page's title or the selected tab. The act's own control and
   what the command names ("the Smart Watch") score higher; of several alike
   controls ("Remove" on every cart row) the one after the named item is taken; a
   floating "+" counts as "add" for commands that create; the place an "add X to my
   cart" puts X (the cart icon) is never the way to X, the place a command finds its
   thing in ("the backpack in my cart") is taken first; "the most recent message"
   is the first row; for commands that act (delete, mark) a weak match loses to an
   unopened overflow menu; a switch's row is opened beside the switch when the
   command does not flip it; an "open" or "what is" command is done once the page
   it names is open and nothing on it names more of the command;
8. nothing similar enough -> the overflow menu or a "More ..." row, then scroll down
   (twice at most), then go back, then give up (honestly: not done). A switch row
   tapped without a switch to confirm its state also ends the run as not done.

A command of several parts ("Turn off WiFi, then enable bluetooth") is worked part
by part; a switch part is done once a screen of the run showed it as wished.

A demonstration in the hints (the best one retrieved for this task) comes first:
its semantic steps are lined up with the history, and its next step is taken when
its element is on the screen ("tap 'Network & internet'" taps the element showing
that text; "scroll down" scrolls unless the step after it is already in view;
"press back" goes back; "type 'V' into the 'F' field" types V when the task says V).
A switch or slider step is left to rules 1-2, which know the wished state; a
target not in view is looked for by scrolling down. Once the demonstration's steps
are all done and no rule has anything left to do, the run stops as done. A
demonstration whose switch or slider the task does not name ("Turn wifi off." for
"turn bluetooth off") is not followed.

The rules live by idea: ``planner.py`` (the class, the launcher, sliders and
switches, a command of several parts), ``timer.py`` (0a), ``world.py`` (0b),
``alarm.py`` (0c), ``stepper.py`` and ``places.py`` (1a), ``fill.py`` (3-5), ``acts.py`` (6),
``navigate.py``, ``lists.py`` and ``pages.py`` (7-8), ``unlock.py`` (features
unlocked by repeated taps: 'Build number' seven times for developer options) and
``files.py`` (file pickers: the file the command names, by name or kind), both tried
first by ``navigate``, ``demo.py`` (following a demonstration), ``steps.py`` (what
the run did so far).
"""

from screenpilot.planner.encoding import Encoder
from screenpilot.planner.offline.navigate import describe_for_match, purpose_bonus
from screenpilot.planner.offline.planner import HeuristicPlanner, split_task
from screenpilot.planner.offline.steps import acted_on

__all__ = [
    "Encoder",
    "HeuristicPlanner",
    "acted_on",
    "describe_for_match",
    "purpose_bonus",
    "split_task",
]
