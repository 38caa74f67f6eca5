#!/usr/bin/env python3
"""Generates the bundled navscope levels (OBJ + sidecar JSON) into assets/.

Run from the repository root:  python3 assets/make_levels.py
Python 3 standard library only; the output is deterministic (byte-identical on
every run), so regenerating and diffing is a valid check.

Conventions: Y is up, metres. Every wall, pillar, slab and step is a closed,
outward-facing box (12 triangles); floors are single quads (2 triangles).
Faces are written as triangles, one `o` + `usemtl` per piece. Materials:
  floor    walkable floors (ground floor, upper floor slabs)
  stairs   stair steps (stairwell and the steps down to the ledge)
  bridge   the bridge deck
  ledge    the ledge platform (one-way drop)
  wall     outer walls, partition walls, maze walls, funnel corridor walls
  railing  parapets around the upper floor, bridge, ledge and watchtower
  pillar   free-standing columns
  asphalt  the road (the sidecar maps it to the "road" surface: humans and vehicles)
  sidewalk raised 0.15 m kerbs (surface "sidewalk": humans only)
  lava     a pool (surface "lava": humans only, cost 25)
  door     the locked storeroom door's panel
  elevator the elevator shaft
  ladder   the watchtower's ladder (rails and rungs)
  tower    the watchtower (its top is walkable)

Default unit (sidecar): 0.6 m square footprint, 1.8 m tall, steps 0.45 m,
drops 3.5 m, slopes 45 degrees; cell size 0.3 m. The showcase adds a second
unit, "car" (a vehicle 1.8 x 4.2 m, built as a 4.57 m square: its diagonal).

showcase.obj (40 x 40 m, x and z in [0, 40]; 1000 triangles)
---------------------------------------------------------------
  Ground floor     y = 0 over x,z in [0,40], in quads round the road and the
                   lava pool; outer walls 4.2 m high.
  Upper floor West slab top y = 3.0 (0.2 thick, 2.8 m clearance below),
                   x in [0,16], z in [0,20], with a stairwell hole
                   x in [4.0,6.4], z in [12.1,17.5].
  Stairs           x in [4.0,6.4]; foot at z = 17.0 (ground), climbing towards
                   -z: 14 steps, rise 0.2, tread 0.35, step k top y = 0.2k over
                   z in [17.0-0.35k, 17.35-0.35k]; the last step (y 2.8) ends at
                   z = 12.1 where the slab (y 3.0) begins. Walls x in [3.7,4.0]
                   and [6.4,6.7] (y 0..4) enclose the flight and rail the hole;
                   a railing closes the hole's south edge (z 17.5..17.65).
                   Bottom entry ~ (5.2, 0, 17.8); top exit ~ (5.2, 3, 11.8).
  Bridge           deck top y = 3.0 (underside 2.8), x in [16,24],
                   z in [8.5,11.0], railings on both sides; joins West and
                   East upper floors. Centre (20, 3.0, 9.75).
  Street / road    ground path x in [16,24], z in [0,20] between the two
                   buildings (walls under the slab edges), passing beneath
                   the bridge; opens south onto the plaza. Its floor is the
                   road (material asphalt -> surface road), 8 m wide: the car
                   (a 4.57 m square) drives with its centre in x [18.3, 21.7].
                   Waypaths for vehicles, one-way, right-hand traffic:
                   road_northbound x = 21.5 from z 22.5 to 3, road_southbound
                   x = 18.5 from z 3 to 22.5.
  Upper floor East slab top y = 3.0, x in [24,40], z in [0,20]; reached only
                   over the bridge. Railed except at the bridge and the ledge steps.
  Elevator         shaft x in [0,2], z in [0,2.4] (y 0..4.2) in the West
                   arcade's north-west corner; landings east of it, x in
                   [2.05,3.55], z in [0.45,1.95], on the ground (y -0.2..0.6)
                   and on the West upper floor (y 2.8..3.6). Two-way, wait 4 s,
                   travel 6 s. From the West arcade's north half it is the
                   shortest way up ((8,0,3) -> (3,3,3): 8.9 m against 31.6 by
                   the stairs); from the plaza the stairs stay shorter.
  Ledge            from the East floor's south edge, two steps down
                   (y 2.8 at z 20..20.35, y 2.6 at z 20.35..20.7) onto a ledge
                   platform top y = 2.4, x in [31,37], z in [20.7,24.0],
                   railed east/west. Its south edge z = 24 drops 2.4 m onto the
                   plaza: one way; back up only via stairs + bridge.
                   Ledge point (34, 2.4, 22); landing (34, 0, 26).
  Plaza            ground z in [20,28]; pillars at (11,24), (18,25.5), (27,25).
                   Sidewalks (kerbs 0.15 high, humans only) along the arcades'
                   fronts, z in [20,21.5]: x in [0,16], [24,30.7], [37.3,40].
                   Lava pool (flush, surface lava: humans only, cost 25)
                   x in [6.5,9.5], z in [23,26.5].
  Storeroom        the East arcade (ground under the East upper floor) closed
                   by a wall at z in [19.8,20] under the slab (x 24.15..31.2
                   and 36.8..40; the ledge steps close x 31..37); its only way
                   in is the locked door panel x in [26.5,28] (z 19.7..20).
                   Door device storeroom_door: two-way, locked, key "red";
                   entry x [26.55,27.95] z [20.35,21.55] (on the sidewalk),
                   exit x [26.55,27.95] z [18.25,19.45] (inside).
  Maze yard        ground z in [28.3,40] behind a wall at z in [28,28.3] with a
                   door at x in [1,3]; four baffle walls (2 m high) make a
                   zig-zag: x=32 and x=16 from the maze wall to z=37.5 (gap to
                   the south), x=24 and x=8 from z=30.5 to the south wall (gap to
                   the north).
  Watchtower       x in [4,6.5], z in [34,37] in the maze's dead-end west lane,
                   top y = 4.0 (more than the unit's 3.5 m drop), parapets with
                   a gap at the ladder. Ladder on the north face, x in
                   [4.75,5.75]; device tower_ladder: two-way, entry x
                   [4.55,5.95] z [32.45,33.85] on the ground, exit x
                   [4.55,5.95] z [34.2,35.6] on top. The ladder is the only way
                   up and down. The red key would lie on its top (5.3, 4, 36).
  Arcades          ground under both upper floors, open to the plaza (the
                   East one is the locked storeroom), with
                   pillars at (10,5), (10,15), (2,8) West and (30,4), (36,12),
                   (28,16) East.
  Sidecar          seed (20, 0.05, 22) on the plaza; start (37, 0.05, 31) in the
                   maze yard's east lane; goal (32, 3.05, 6) on the East upper
                   floor: the default path zig-zags through the maze, climbs the
                   stairs and crosses the bridge. Units: human (default) and
                   car (vehicle 1.8 x 4.2 m, 1.5 m tall, step 0.2, drop 0.3,
                   15 degrees, turning radius 5).

funnel.obj (20 x 12 m, x in [0,20], z in [0,12]; 122 triangles)
---------------------------------------------------------------
  Floor y = 0; perimeter walls and corridor walls 1.2 m high, 0.3 m thick.
  Serpentine corridor of five lanes (x 0-4, 4-8, 8-12, 12-16, 16-20) split by
  baffles at x = 4 and 12 (z 0..8.5, gap north) and x = 8 and 16 (z 3.5..12,
  gap south). Two narrowings with 1.55 m openings:
    lane 3: wall z in [5.5,5.8], x in [9.7,11.85] (opening on the west, x 8.15..9.7)
    lane 4: wall z in [6.2,6.5], x in [13.7,15.85] (opening on the west, x 12.15..13.7)
  Start (1.9, 0.05, 1.5) at the west end, goal (18.1, 0.05, 10.5) at the east
  end; the path turns round each baffle end, alternately left and right.
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

UNIT = {
    "name": "human",
    "width": 0.6,
    "height": 1.8,
    "stepHeight": 0.45,
    "maxDrop": 3.5,
    "maxSlopeDegrees": 45,
}
CELL_SIZE = 0.3


def fmt(value):
    """Short, deterministic decimal text for a coordinate."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


class Mesh:
    """Triangle soup grouped into named pieces with a material each."""

    def __init__(self):
        self.vertices = []  # (x, y, z)
        self.pieces = []  # (name, material, [(i, j, k)]) with 0-based indices
        self.boxes = []  # (name, material, (x0, y0, z0, x1, y1, z1)) for checks
        self.floors = []  # (name, material, (x0, z0, x1, z1, y)) for checks
        self.names = set()

    def _piece(self, name, material, points, quads):
        assert name not in self.names, name
        self.names.add(name)
        base = len(self.vertices)
        self.vertices.extend(points)
        triangles = []
        for quad, normal in quads:
            a, b, c, d = (points[i] for i in quad)
            # The quad's winding must face along the wanted outward normal.
            n = cross(sub(b, a), sub(c, a))
            assert sum(n[i] * normal[i] for i in range(3)) > 0, (name, quad)
            triangles.append((base + quad[0], base + quad[1], base + quad[2]))
            triangles.append((base + quad[0], base + quad[2], base + quad[3]))
        self.pieces.append((name, material, triangles))

    def floor(self, name, material, x0, z0, x1, z1, y):
        """Upward-facing rectangle at height y."""
        assert x0 < x1 and z0 < z1
        points = [(x0, y, z0), (x0, y, z1), (x1, y, z1), (x1, y, z0)]
        self._piece(name, material, points, [((0, 1, 2, 3), (0, 1, 0))])
        self.floors.append((name, material, (x0, z0, x1, z1, y)))

    def box(self, name, material, x0, y0, z0, x1, y1, z1):
        """Closed axis-aligned box, outward faces, 12 triangles."""
        assert x0 < x1 and y0 < y1 and z0 < z1, name
        # Corner i has x1 if bit 0, y1 if bit 1, z1 if bit 2.
        points = [
            (x1 if i & 1 else x0, y1 if i & 2 else y0, z1 if i & 4 else z0) for i in range(8)
        ]
        quads = [
            ((2, 6, 7, 3), (0, 1, 0)),  # top    (+y)
            ((0, 1, 5, 4), (0, -1, 0)),  # bottom (-y)
            ((1, 3, 7, 5), (1, 0, 0)),  # +x
            ((0, 4, 6, 2), (-1, 0, 0)),  # -x
            ((4, 5, 7, 6), (0, 0, 1)),  # +z
            ((0, 2, 3, 1), (0, 0, -1)),  # -z
        ]
        self._piece(name, material, points, quads)
        self.boxes.append((name, material, (x0, y0, z0, x1, y1, z1)))

    def triangle_count(self):
        return sum(len(t) for _, _, t in self.pieces)

    def obj_text(self, title):
        lines = [f"# {title}", "# Generated by assets/make_levels.py; do not edit by hand.",
                 f"# {len(self.vertices)} vertices, {self.triangle_count()} triangles. Y up, metres."]
        for x, y, z in self.vertices:
            lines.append(f"v {fmt(x)} {fmt(y)} {fmt(z)}")
        for name, material, triangles in self.pieces:
            lines.append(f"o {name}")
            lines.append(f"usemtl {material}")
            for a, b, c in triangles:
                lines.append(f"f {a + 1} {b + 1} {c + 1}")
        return "\n".join(lines) + "\n"


def outer_walls(mesh, x0, z0, x1, z1, height, thickness, material="wall"):
    t = thickness
    mesh.box("outer_wall_north", material, x0 - t, 0, z0 - t, x1 + t, height, z0)
    mesh.box("outer_wall_south", material, x0 - t, 0, z1, x1 + t, height, z1 + t)
    mesh.box("outer_wall_west", material, x0 - t, 0, z0, x0, height, z1)
    mesh.box("outer_wall_east", material, x1, 0, z0, x1 + t, height, z1)


def pillar(mesh, name, cx, cz, half, height):
    mesh.box(name, "pillar", cx - half, 0, cz - half, cx + half, height, cz + half)


# --------------------------------------------------------------------------
# showcase
# --------------------------------------------------------------------------
UPPER_Y = 3.0  # upper floor walking height
SLAB = 0.2  # slab thickness (underside at 2.8)
RAIL = 1.0  # railing height above the surface it guards
STEP_RISE = 0.2
STEP_TREAD = 0.35
STAIR_X0, STAIR_X1 = 4.0, 6.4
STAIR_FOOT_Z = 17.0
STAIR_STEPS = 14  # tops 0.2 .. 2.8; the slab edge is the 15th riser
STAIR_TOP_Z = STAIR_FOOT_Z - STAIR_STEPS * STEP_TREAD  # 12.1
HOLE_Z1 = 17.5  # stairwell hole south edge (open above the whole flight)
LEDGE_X0, LEDGE_X1 = 31.0, 37.0
LEDGE_Y = 2.4
LEDGE_Z0, LEDGE_Z1 = 20.7, 24.0
KERB = 0.15  # sidewalk height above the ground
SIDEWALK_Z1 = 21.5  # sidewalks along the arcades' fronts, z in [20, 21.5]
LAVA_X0, LAVA_X1, LAVA_Z0, LAVA_Z1 = 6.5, 9.5, 23.0, 26.5
STOREROOM_Z0 = 19.8  # wall closing the East arcade, z in [19.8, 20]
DOOR_X0, DOOR_X1 = 26.5, 28.0
SHAFT_X1, SHAFT_Z1 = 2.0, 2.4  # elevator shaft in the West arcade's north-west corner
TOWER_X0, TOWER_X1, TOWER_Z0, TOWER_Z1 = 4.0, 6.5, 34.0, 37.0
TOWER_Y = 4.0  # higher than the unit's 3.5 m drop: the ladder is the only way up and down
LADDER_X0, LADDER_X1 = 4.75, 5.75

CAR = {
    "name": "car",
    "kind": "vehicle",
    "width": 1.8,
    "length": 4.2,
    "height": 1.5,
    "stepHeight": 0.2,
    "maxDrop": 0.3,
    "maxSlopeDegrees": 15,
    "turningRadius": 5,
}


def zone(x0, y0, z0, x1, y1, z1):
    """A device zone (an axis-aligned box), its numbers rounded to 0.1 mm."""
    return {"min": [round(v, 4) for v in (x0, y0, z0)], "max": [round(v, 4) for v in (x1, y1, z1)]}


def showcase():
    m = Mesh()
    top, bottom = UPPER_Y, UPPER_Y - SLAB
    rail = top + RAIL

    # Ground floor y = 0, in pieces round the road (the street) and the lava
    # pool, so that no two surfaces overlap.
    m.floor("ground_west", "floor", 0, 0, 16, LAVA_Z0, 0)
    m.floor("ground_lava_west", "floor", 0, LAVA_Z0, LAVA_X0, LAVA_Z1, 0)
    m.floor("lava_pool", "lava", LAVA_X0, LAVA_Z0, LAVA_X1, LAVA_Z1, 0)
    m.floor("ground_lava_east", "floor", LAVA_X1, LAVA_Z0, 16, LAVA_Z1, 0)
    m.floor("ground_south_west", "floor", 0, LAVA_Z1, 16, 40, 0)
    m.floor("road", "asphalt", 16, 0, 24, 20, 0)
    m.floor("ground_south_middle", "floor", 16, 20, 24, 40, 0)
    m.floor("ground_east", "floor", 24, 0, 40, 40, 0)
    outer_walls(m, 0, 0, 40, 40, 4.2, 0.4)
    # Sidewalks along the arcades' fronts (the road comes out of the street
    # between them); the East one stops at the ledge's railings.
    m.box("sidewalk_west", "sidewalk", 0, 0, 20, 16, KERB, SIDEWALK_Z1)
    m.box("sidewalk_east_a", "sidewalk", 24, 0, 20, LEDGE_X0 - 0.3, KERB, SIDEWALK_Z1)
    m.box("sidewalk_east_b", "sidewalk", LEDGE_X1 + 0.3, 0, 20, 40, KERB, SIDEWALK_Z1)

    # Upper floor West: slab x 0..16, z 0..20 around the stairwell hole.
    m.box("upper_west_north", "floor", 0, bottom, 0, 16, top, STAIR_TOP_Z)
    m.box("upper_west_hole_west", "floor", 0, bottom, STAIR_TOP_Z, STAIR_X0, top, HOLE_Z1)
    m.box("upper_west_hole_east", "floor", STAIR_X1, bottom, STAIR_TOP_Z, 16, top, HOLE_Z1)
    m.box("upper_west_south", "floor", 0, bottom, HOLE_Z1, 16, top, 20)

    # Stairs: step k rises 0.2k over tread z in [foot - 0.35k, foot - 0.35(k-1)].
    for k in range(1, STAIR_STEPS + 1):
        z1 = STAIR_FOOT_Z - (k - 1) * STEP_TREAD
        z0 = STAIR_FOOT_Z - k * STEP_TREAD
        m.box(f"stair_step_{k:02d}", "stairs", STAIR_X0, 0, round(z0, 4), STAIR_X1,
              round(k * STEP_RISE, 4), round(z1, 4))
    # Stairwell walls from the ground to a railing's height above the slab.
    m.box("stairwell_wall_west", "wall", STAIR_X0 - 0.3, 0, STAIR_TOP_Z, STAIR_X0, rail, HOLE_Z1)
    m.box("stairwell_wall_east", "wall", STAIR_X1, 0, STAIR_TOP_Z, STAIR_X1 + 0.3, rail, HOLE_Z1)
    m.box("stairwell_railing_south", "railing", STAIR_X0 - 0.3, top, HOLE_Z1, STAIR_X1 + 0.3, rail,
          HOLE_Z1 + 0.15)

    # Upper floor West railings (south edge; east edge with the bridge opening).
    m.box("upper_west_railing_south", "railing", 0, top, 19.85, 16, rail, 20)
    m.box("upper_west_railing_east_n", "railing", 15.85, top, 0, 16, rail, 8.5)
    m.box("upper_west_railing_east_s", "railing", 15.85, top, 11.0, 16, rail, 19.85)

    # Bridge over the street.
    m.box("bridge_deck", "bridge", 16, bottom, 8.5, 24, top, 11.0)
    m.box("bridge_railing_north", "railing", 16, top, 8.5, 24, rail, 8.65)
    m.box("bridge_railing_south", "railing", 16, top, 10.85, 24, rail, 11.0)

    # Street walls under the slab edges: the street x 16..24 is its own path.
    m.box("street_wall_west", "wall", 15.85, 0, 0, 16, bottom, 20)
    m.box("street_wall_east", "wall", 24, 0, 0, 24.15, bottom, 20)

    # Upper floor East.
    m.box("upper_east", "floor", 24, bottom, 0, 40, top, 20)
    m.box("upper_east_railing_west_n", "railing", 24, top, 0, 24.15, rail, 8.5)
    m.box("upper_east_railing_west_s", "railing", 24, top, 11.0, 24.15, rail, 20)
    m.box("upper_east_railing_south_w", "railing", 24.15, top, 19.85, LEDGE_X0, rail, 20)
    m.box("upper_east_railing_south_e", "railing", LEDGE_X1, top, 19.85, 40, rail, 20)

    # Ledge: two steps down from the East floor, then a solid platform whose
    # south edge is a 2.4 m drop onto the plaza.
    m.box("ledge_step_1", "stairs", LEDGE_X0, 0, 20.0, LEDGE_X1, 2.8, 20.35)
    m.box("ledge_step_2", "stairs", LEDGE_X0, 0, 20.35, LEDGE_X1, 2.6, LEDGE_Z0)
    m.box("ledge_platform", "ledge", LEDGE_X0, 0, LEDGE_Z0, LEDGE_X1, LEDGE_Y, LEDGE_Z1)
    m.box("ledge_railing_west", "railing", LEDGE_X0 - 0.3, 0, 20.0, LEDGE_X0, LEDGE_Y + RAIL,
          LEDGE_Z1)
    m.box("ledge_railing_east", "railing", LEDGE_X1, 0, 20.0, LEDGE_X1 + 0.3, LEDGE_Y + RAIL,
          LEDGE_Z1)

    # The East arcade becomes a storeroom: a wall under the slab's south edge
    # closes it (the ledge's steps close x 31..37), and a locked door panel
    # fills the wall's only doorway. The door device is the only way in.
    m.box("storeroom_wall_west", "wall", 24.15, 0, STOREROOM_Z0, DOOR_X0, bottom, 20)
    m.box("storeroom_door", "door", DOOR_X0, 0, STOREROOM_Z0 - 0.1, DOOR_X1, bottom, 20)
    m.box("storeroom_wall_middle", "wall", DOOR_X1, 0, STOREROOM_Z0, LEDGE_X0 + 0.2, bottom, 20)
    m.box("storeroom_wall_east", "wall", LEDGE_X1 - 0.2, 0, STOREROOM_Z0, 40, bottom, 20)

    # Elevator shaft in the West arcade's north-west corner, through the slab;
    # its landings are east of it, on the ground and on the West upper floor.
    m.box("elevator_shaft", "elevator", 0, 0, 0, SHAFT_X1, 4.2, SHAFT_Z1)

    # Watchtower in the maze's dead-end west lane: 4 m high, parapets on top,
    # a ladder on its north face (the parapet leaves a gap at the ladder).
    m.box("watchtower", "tower", TOWER_X0, 0, TOWER_Z0, TOWER_X1, TOWER_Y, TOWER_Z1)
    parapet = TOWER_Y + RAIL
    m.box("watchtower_railing_south", "railing", TOWER_X0, TOWER_Y, TOWER_Z1 - 0.15, TOWER_X1,
          parapet, TOWER_Z1)
    m.box("watchtower_railing_west", "railing", TOWER_X0, TOWER_Y, TOWER_Z0, TOWER_X0 + 0.15,
          parapet, TOWER_Z1 - 0.15)
    m.box("watchtower_railing_east", "railing", TOWER_X1 - 0.15, TOWER_Y, TOWER_Z0, TOWER_X1,
          parapet, TOWER_Z1 - 0.15)
    m.box("watchtower_railing_north_w", "railing", TOWER_X0 + 0.15, TOWER_Y, TOWER_Z0,
          LADDER_X0 - 0.05, parapet, TOWER_Z0 + 0.15)
    m.box("watchtower_railing_north_e", "railing", LADDER_X1 + 0.05, TOWER_Y, TOWER_Z0,
          TOWER_X1 - 0.15, parapet, TOWER_Z0 + 0.15)
    m.box("ladder_rail_west", "ladder", LADDER_X0, 0, TOWER_Z0 - 0.1, LADDER_X0 + 0.1, TOWER_Y,
          TOWER_Z0)
    m.box("ladder_rail_east", "ladder", LADDER_X1 - 0.1, 0, TOWER_Z0 - 0.1, LADDER_X1, TOWER_Y,
          TOWER_Z0)
    for k in range(8):
        y = 0.5 + 0.45 * k
        m.box(f"ladder_rung_{k + 1}", "ladder", LADDER_X0 + 0.1, round(y, 4), TOWER_Z0 - 0.08,
              LADDER_X1 - 0.1, round(y + 0.05, 4), TOWER_Z0 - 0.02)

    # Arcade pillars under the upper floors (they touch the slab underside).
    for name, cx, cz in [("west_a", 10, 5), ("west_b", 10, 15), ("west_c", 2, 8),
                         ("east_a", 30, 4), ("east_b", 36, 12), ("east_c", 28, 16)]:
        pillar(m, f"pillar_{name}", cx, cz, 0.3, bottom)
    # Plaza pillars.
    for name, cx, cz in [("plaza_a", 11, 24), ("plaza_b", 18, 25.5), ("plaza_c", 27, 25)]:
        pillar(m, f"pillar_{name}", cx, cz, 0.4, 2.5)

    # Maze yard: wall at z 28 with a door at x 1..3, four baffles (zig-zag).
    m.box("maze_wall_west", "wall", 0, 0, 28, 1, 2.0, 28.3)
    m.box("maze_wall_east", "wall", 3, 0, 28, 40, 2.0, 28.3)
    m.box("maze_baffle_32", "wall", 31.85, 0, 28.3, 32.15, 2.0, 37.5)
    m.box("maze_baffle_24", "wall", 23.85, 0, 30.5, 24.15, 2.0, 40)
    m.box("maze_baffle_16", "wall", 15.85, 0, 28.3, 16.15, 2.0, 37.5)
    m.box("maze_baffle_08", "wall", 7.85, 0, 30.5, 8.15, 2.0, 40)

    # Devices. A cell whose whole square lies in an entry zone (its ground in
    # the zone's y range) leads to the centre of the exit zone, and back when
    # two-way; the exit zone's y range must hold the ground there.
    devices = [
        {"id": "storeroom_door", "kind": "door",
         "entry": zone(DOOR_X0 + 0.05, -0.2, SIDEWALK_Z1 - 1.15, DOOR_X1 - 0.05, 0.5,
                       SIDEWALK_Z1 + 0.05),
         "exit": zone(DOOR_X0 + 0.05, -0.2, 18.25, DOOR_X1 - 0.05, 0.5, 19.45),
         "twoWay": True, "locked": True, "key": "red", "action": "open",
         "waitTime": 1, "travelTime": 1},
        {"id": "west_elevator", "kind": "elevator",
         "entry": zone(SHAFT_X1 + 0.05, -0.2, 0.45, SHAFT_X1 + 1.55, 0.6, 1.95),
         "exit": zone(SHAFT_X1 + 0.05, top - 0.2, 0.45, SHAFT_X1 + 1.55, top + 0.6, 1.95),
         "twoWay": True, "action": "call", "waitTime": 4, "travelTime": 6},
        {"id": "tower_ladder", "kind": "ladder",
         "entry": zone(LADDER_X0 - 0.2, -0.2, TOWER_Z0 - 1.55, LADDER_X1 + 0.2, 0.5,
                       TOWER_Z0 - 0.15),
         "exit": zone(LADDER_X0 - 0.2, TOWER_Y - 0.2, TOWER_Z0 + 0.2, LADDER_X1 + 0.2,
                      TOWER_Y + 0.4, TOWER_Z0 + 1.6),
         "twoWay": True, "action": "climb", "travelTime": 5},
    ]
    # Right-hand traffic on the road: northbound (-z) on its east half,
    # southbound on its west half. The car's 4.57 m square keeps its centre
    # within 1.7 m of the road's middle (x 20).
    waypaths = [
        {"id": "road_northbound", "points": [[21.5, 0.05, 22.5], [21.5, 0.05, 3]],
         "oneWay": True, "unit": "vehicle"},
        {"id": "road_southbound", "points": [[18.5, 0.05, 3], [18.5, 0.05, 22.5]],
         "oneWay": True, "unit": "vehicle"},
    ]
    settings = {
        "seeds": [[20, 0.05, 22]],
        "start": [37, 0.05, 31],
        "goal": [32, 3.05, 6],
        "cellSize": CELL_SIZE,
        "units": [{"name": "human", "kind": "human", **{k: v for k, v in UNIT.items() if k != "name"}}, CAR],
        "materials": {"asphalt": "road"},
        "devices": devices,
        "waypaths": waypaths,
    }
    return m, settings


# --------------------------------------------------------------------------
# funnel
# --------------------------------------------------------------------------
def funnel():
    m = Mesh()
    h = 1.2
    m.floor("floor", "floor", 0, 0, 20, 12, 0)
    outer_walls(m, 0, 0, 20, 12, h, 0.3)
    m.box("baffle_x04", "wall", 3.85, 0, 0, 4.15, h, 8.5)
    m.box("baffle_x08", "wall", 7.85, 0, 3.5, 8.15, h, 12)
    m.box("baffle_x12", "wall", 11.85, 0, 0, 12.15, h, 8.5)
    m.box("baffle_x16", "wall", 15.85, 0, 3.5, 16.15, h, 12)
    m.box("narrowing_lane3", "wall", 9.7, 0, 5.5, 11.85, h, 5.8)
    m.box("narrowing_lane4", "wall", 13.7, 0, 6.2, 15.85, h, 6.5)
    settings = {
        "seeds": [[1.9, 0.05, 1.5]],
        "start": [1.9, 0.05, 1.5],
        "goal": [18.1, 0.05, 10.5],
        "cellSize": CELL_SIZE,
        "unit": UNIT,
    }
    return m, settings


def navmesh_plaza():
    """A navigation mesh as a tool exports one: walkable polygons only, corners
    shared between neighbours. 18 x 18 m of 3 m cells on a gentle slope
    (y = 0.04 x, so every face is planar), two holes the straight line from the
    start to the goal crosses, an L-shaped (non-convex) hexagon, a row of
    triangles, and a strip of grass. Returns (OBJ text, settings, face count)."""
    cell, size = 3, 6
    holes = {(1, 1), (1, 2), (3, 3), (4, 3)}
    l_shape = [(0, 4), (0, 5), (1, 5)]
    height = lambda x: 0.04 * x
    index = {}
    vertices = []

    def corner(i, j):
        if (i, j) not in index:
            index[(i, j)] = len(vertices) + 1
            x, z = i * cell, j * cell
            vertices.append((x, height(x), z))
        return index[(i, j)]

    # Faces wound counter-clockwise seen from above (y up: -x, +z turning).
    faces = []  # (material, [corner numbers])
    faces.append(("floor", [corner(0, 4), corner(0, 5), corner(0, 6), corner(1, 6), corner(2, 6),
                            corner(2, 5), corner(1, 5), corner(1, 4)]))
    for j in range(size):
        for i in range(size):
            if (i, j) in holes or (i, j) in l_shape:
                continue
            material = "grass" if i == size - 1 else "floor"
            a, b, c, d = corner(i, j), corner(i, j + 1), corner(i + 1, j + 1), corner(i + 1, j)
            if j == size - 1:
                # The last row as triangles, diagonals alternating.
                faces += [(material, [a, b, c]), (material, [a, c, d])] if i % 2 else \
                         [(material, [a, b, d]), (material, [b, c, d])]
            else:
                faces.append((material, [a, b, c, d]))
    lines = ["# navscope navmesh plaza: a navigation mesh as a tool exports one",
             "# Generated by assets/make_levels.py; do not edit by hand.",
             f"# {len(vertices)} vertices, {len(faces)} polygons. Y up, metres."]
    for x, y, z in vertices:
        lines.append(f"v {fmt(x)} {fmt(y)} {fmt(z)}")
    material = None
    for face_material, corners in faces:
        if face_material != material:
            material = face_material
            lines.append(f"usemtl {material}")
        lines.append("f " + " ".join(str(c) for c in corners))
    settings = {
        "navmesh": True,
        "start": [1.5, round(height(1.5) + 0.05, 3), 1.5],
        "goal": [16.5, round(height(16.5) + 0.05, 3), 16.5],
        "unit": UNIT,
    }
    return "\n".join(lines) + "\n", settings, len(faces)


def check_stairs(mesh):
    """Each step block rises at most 0.2 over at least a 0.35 tread."""
    steps = sorted((b for n, _, b in mesh.boxes if n.startswith("stair_step_")), key=lambda b: -b[2])
    previous_top = 0.0
    for x0, y0, z0, x1, y1, z1 in steps:
        assert y1 - previous_top <= STEP_RISE + 1e-9 and z1 - z0 >= STEP_TREAD - 1e-9
        previous_top = y1
    assert abs(UPPER_Y - previous_top) <= STEP_RISE + 1e-9


def settings_text(settings):
    """Sidecar JSON with one key per line and points kept on one line; a list of
    objects (units, devices, waypaths) gets one object per line."""
    def dump(value):
        return json.dumps(value, separators=(", ", ": "))

    lines = []
    for key, value in settings.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            items = ",\n".join(f"    {dump(v)}" for v in value)
            lines.append(f"  {json.dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {dump(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_level(stem, mesh, settings, title):
    with open(os.path.join(HERE, stem + ".obj"), "w", newline="\n") as f:
        f.write(mesh.obj_text(title))
    with open(os.path.join(HERE, stem + ".json"), "w", newline="\n") as f:
        f.write(settings_text(settings))
    print(f"assets/{stem}.obj: {len(mesh.vertices)} vertices, {mesh.triangle_count()} triangles")


def main():
    mesh, settings = showcase()
    check_stairs(mesh)
    write_level("showcase", mesh, settings,
                "navscope showcase: two floors, stairs, bridge over a road, one-way ledge, maze,"
                " locked door, elevator, ladder, sidewalks, lava")
    mesh, settings = funnel()
    write_level("funnel", mesh, settings, "navscope funnel: serpentine corridor for teaching the funnel")
    text, settings, faces = navmesh_plaza()
    with open(os.path.join(HERE, "navmesh_plaza.obj"), "w", newline="\n") as f:
        f.write(text)
    with open(os.path.join(HERE, "navmesh_plaza.json"), "w", newline="\n") as f:
        f.write(settings_text(settings))
    print(f"assets/navmesh_plaza.obj: {faces} polygons")


if __name__ == "__main__":
    main()
