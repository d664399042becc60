"""An independent generator of fictional multi-agency incidents with known truth.

Written without reference to onrecord's own generator or reconstruction code: the
exports imitate how agencies' systems record an incident, not what onrecord reads.
"""
