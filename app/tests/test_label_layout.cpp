// placeLabels against cases worked out by hand: the nearest of two
// overlapping labels wins, apart labels both stay, and the far ones fade.
#include <gtest/gtest.h>

#include "label_layout.h"

namespace {

using namespace nav::app;

TEST(LabelLayout, TheNearerOfTwoOverlappingLabelsIsKept) {
  const std::vector<LabelBox> boxes = {
      {{100, 100}, {80, 14}, 30.0f}, {{150, 105}, {80, 14}, 10.0f}, {{400, 100}, {80, 14}, 20.0f}};
  const std::vector<PlacedLabel> placed = placeLabels(boxes);
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[0].index, 1u);  // the nearest first
  EXPECT_EQ(placed[1].index, 2u);  // apart from it; label 0 overlaps label 1
}

TEST(LabelLayout, FarLabelsFade) {
  // Apart from each other, at 1, 2, 5, 8 and 20 times the nearest distance.
  std::vector<LabelBox> boxes;
  for (const float distance : {10.0f, 20.0f, 50.0f, 80.0f, 200.0f})
    boxes.push_back({{float(boxes.size()) * 100.0f, 0.0f}, {80.0f, 14.0f}, distance});
  const std::vector<PlacedLabel> placed = placeLabels(boxes);
  ASSERT_EQ(placed.size(), 5u);
  EXPECT_FLOAT_EQ(placed[0].alpha, 1.0f);
  EXPECT_FLOAT_EQ(placed[1].alpha, 1.0f);
  EXPECT_FLOAT_EQ(placed[2].alpha, 1.0f - 3.0f / 6.0f * 0.75f);
  EXPECT_FLOAT_EQ(placed[3].alpha, 0.25f);
  EXPECT_FLOAT_EQ(placed[4].alpha, 0.25f);
}

TEST(LabelLayout, TouchingWithinTheGapCountsAsOverlap) {
  const std::vector<LabelBox> boxes = {
      {{0, 0}, {50, 10}, 1.0f}, {{51, 0}, {50, 10}, 2.0f}, {{0, 13}, {50, 10}, 3.0f}};
  const std::vector<PlacedLabel> placed = placeLabels(boxes);
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[1].index, 2u);  // 3 px below: clear of the 2 px gap
}

}  // namespace
