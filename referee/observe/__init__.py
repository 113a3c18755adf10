"""The controller that turns what the camera sees of the table into the referee's events.

`Controller(game, sink).observe(seen)` returns what happened (`Said`); the phases it watches
live in `deal`, `turns` and `showdown`, the timings people keep beside the rule they time.
"""

from referee.observe.context import Said, Warning
from referee.observe.controller import Controller
from referee.observe.deal import DEAL_STILL
from referee.observe.moment import LIFTED, MISSING_AFTER, SURE_TO_ACT, UNREAD_AFTER
from referee.observe.showdown import SETTLE_STILL

__all__ = ["DEAL_STILL", "LIFTED", "MISSING_AFTER", "SETTLE_STILL", "SURE_TO_ACT", "UNREAD_AFTER",
           "Controller", "Said", "Warning"]
