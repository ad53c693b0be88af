# nbgrader on the class's JupyterHub (hub/jupyterhub_config.py puts this folder on every user's
# JUPYTER_CONFIG_PATH): the course and the exchange folder where the instructor releases
# assignments and collects what students submit (Assignments tab, or `nbgrader submit`).
import os

c = get_config()  # noqa: F821 (injected by nbgrader)
c.CourseDirectory.course_id = "hybridization"
c.Exchange.root = os.environ.get("HYBRID_NBGRADER_EXCHANGE") or "/srv/nbgrader/exchange"
